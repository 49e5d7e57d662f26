/*
 * ordo's engine and collective semantics in Promela, part 1 of 4: the state.
 *
 * The exported file defines the instance's bounds before this part and the instance's tables
 * (ranks' programs, ops, vars, pools, communicators) in its init process after the last part.
 * docs/promela.md gives the correspondence with docs/semantics.md and runtime/engine/rules
 * rule by rule. The bounds the instance defines:
 *   NRANKS NCOMMS           ranks of the job, communicators
 *   NOPS NVARS NPOOLS       the largest op, var and pool tables of any rank's program
 *   NACTIONS NACC           the longest main program, the most vars one op names
 *   NTHREADS                the most threads of any pool
 *   VQ RQ                   the longest var queue and pool run queue that can form
 *   NMEMBERS NSEQ           the largest communicator, the most calls a rank makes on one
 *   ORDO_STREAMS NSTREAM    1 when calls complete through streams (NCCL), and the most calls
 *                           a rank makes in all
 *   ORDO_EARLY              1 when some call may return before its match (docs/semantics.md,
 *                           C4: a bcast, a reduce)
 *   T_OPS T_ACC T_ACTS T_POOLS T_MEMBERS T_RANKS_OF T_ISSUERS   flattened table sizes
 * Every field is a byte: the exporter refuses instances whose counts do not fit.
 */

/* An op's phase. checker::OpPhase keeps `submitted` as one phase and asks the rules whether the
 * op still waits for grants or sits in its run queue; here the two are phases of their own. */
#define UNSUBMITTED 0
#define WAITING 1   /* submitted, some var has not granted it yet */
#define READY 2     /* every var granted it; in its pool's run queue */
#define RUNNING 3   /* a compute or copy op on its thread: may complete at any moment */
#define CLAIMED 4   /* a collective op on its thread, its call not issued yet: another thread
                     * of its pool may claim and issue first (docs/semantics.md, S7) */
#define ISSUED 5    /* a collective op issued its call, not yet matched */
#define FIRED 6     /* its call matched on every member: the op may complete */
#define COMPLETED 7

/* Op kinds as the engine treats them (dag::OpKind). */
#define K_SYNC 0      /* compute or copy: holds its thread until it completes */
#define K_BLOCKING 1  /* collective: holds its thread from its claim until it completes */
#define K_ASYNC 2     /* async_collective: holds its thread from its claim until it issued */

/* Main-thread action kinds (dag::Action). */
#define A_SUBMIT 0
#define A_WAIT_READ 1
#define A_WAIT_ALL 2
#define A_COLLECTIVE 3

#define POOL_FIFO 0
#define POOL_PRIORITY 1

#define NONE 255
/* The issuer of a call made by the main thread; an op issues as its op id plus one. */
#define MAIN_ISSUER 255

typedef VarS {
  byte reads;       /* reads holding the var (reads_active) */
  bit writing;      /* a write holds the var (write_active) */
  byte wsubmitted;  /* writes submitted so far, for wait_to_read */
  byte wdone;       /* writes completed so far */
  byte qlen;
  byte qop[VQ];     /* the FIFO of accesses waiting for their grant: the op ... */
  bit qwrite[VQ];   /* ... and whether it writes */
};

typedef PoolS {
  byte nready;
  byte rq[RQ];          /* ready ops in the order the pool pops them */
  byte busy[NTHREADS];  /* per thread: the op it holds plus one, 0 when free */
  byte lowfree;         /* the lowest free thread, NONE when every thread is busy */
};

typedef RankS {
  byte pc;              /* the main thread's next action */
  bit blocked;          /* the action at pc is a collective issued and not yet matched */
#if ORDO_EARLY
  byte early;           /* calls it returned from before their match, still unmatched */
  byte oseq[NOPS];      /* a collective op's sequence number on its communicator, once issued */
#endif
  byte incomplete;      /* ops submitted and not completed */
  byte phase[NOPS];
  byte pending[NOPS];   /* vars that have not granted the op yet */
  byte thread[NOPS];    /* the thread an op holds, meaningful while it holds one */
  bit marked[NOPS];     /* ready in the event being taken, not yet in its run queue */
  VarS var[NVARS];
  PoolS pool[NPOOLS];
#if ORDO_STREAMS
  /* The rank's one stream (docs/semantics.md, D1): its launched calls not completed, head
   * first, each as its communicator and sequence number, and whether every member launched it. */
  byte slen;
  byte scomm[NSTREAM];
  byte sseq[NSTREAM];
  bit smatched[NSTREAM];
#endif
};

/* One communicator's matching state, as comm::MatchState keeps it. Calls match in
 * sequence order, so the calls a member has in flight are exactly the sequence numbers from
 * `matched` up to its `next`. */
typedef CommS {
  byte matched;            /* calls matched on every member so far */
  byte next[NMEMBERS];     /* per member: the sequence number of its next call */
  byte sig[NSEQ];          /* per sequence number: the signature issued there, 0 when none */
  byte posted[NSEQ];       /* per sequence number: how many members issued it */
  byte issuer[T_ISSUERS];  /* per member and sequence number: who issued, 0 when nobody */
#if ORDO_EARLY
  bit returned[T_ISSUERS];  /* per member and sequence number: its issuer returned before the
                             * match (docs/semantics.md, C4) */
  byte prefix[NSEQ];        /* per sequence number: members 0 to prefix - 1 have issued it, which
                             * is what a scan member needs */
#endif
};

RankS rk[NRANKS];
CommS cm[NCOMMS];

/* The instance's tables. init writes them once before any process runs; `hidden` keeps them
 * out of the state vector, where constants would only cost memory. */
hidden byte nops[NRANKS];
hidden byte nact[NRANKS];
hidden byte op_kind[T_OPS];
hidden byte op_pool[T_OPS];
hidden int op_prio[T_OPS];
hidden byte op_nacc[T_OPS];
hidden byte op_comm[T_OPS];
hidden byte op_sig[T_OPS];      /* the call's signature id: equal ids exactly for calls that
                                 * agree, blocking included */
hidden byte submit_order[T_OPS];  /* per rank: its ops in submit order */
hidden byte acc_var[T_ACC];     /* per op: the vars it names, reads first, as the rules do */
hidden byte acc_write[T_ACC];
hidden byte act_kind[T_ACTS];
hidden byte act_arg[T_ACTS];    /* the op submitted or the var waited on */
hidden byte act_comm[T_ACTS];
hidden byte act_sig[T_ACTS];
/* How a call may return before its match (docs/semantics.md, C4): 0 never, 1 as a bcast or
 * scatter (the root at once, a non-root once the root issued), 2 as a reduce or gather (a non-root
 * at once), 3 as a scan or exscan (member m once members 0 to m issued); and its root, a member
 * index. Per op and per main action. */
hidden byte op_early[T_OPS];
hidden byte op_root[T_OPS];
hidden byte act_early[T_ACTS];
hidden byte act_root[T_ACTS];
hidden byte pool_kind[T_POOLS];
hidden byte pool_threads[T_POOLS];
hidden byte comm_size[NCOMMS];
hidden byte member_of[T_MEMBERS];  /* per communicator and rank: its member index, or NONE */
hidden byte rank_of[T_RANKS_OF];   /* per communicator and member index: the world rank */

#define OPX(r, o) ((r) * NOPS + (o))
#define ACCX(r, o, i) (((r) * NOPS + (o)) * NACC + (i))
#define ACTX(r, a) ((r) * NACTIONS + (a))
#define POOLX(r, p) ((r) * NPOOLS + (p))
#define MEMX(c, r) ((c) * NRANKS + (r))
#define RANKX(c, m) ((c) * NMEMBERS + (m))
#define ISX(m, s) ((m) * NSEQ + (s))

/* The verdicts of the checks made when a call is issued; asserted right after being set. */
hidden byte p2_thread_rule_kept;
hidden byte p1_order_consistent;

#if ORDO_EARLY
/* Set once, by Sync, at any moment: from then on no call returns early. Deadlock freedom is judged
 * in the states where it is set (docs/promela.md, "Early returns"). */
bit sync_now;
#endif

/* Set by the transition that breaks P1 or P2. The checker ends an execution at its first violation;
 * here every transition requires `!violated` and every process may then end, so no execution goes
 * past a violation either, whether or not that violation is reported. */
bit violated;

/* Which violations are reported: all by default. `spin -DORDO_REPORT_P2=0 -a` searches for P1
 * alone, P2 violations then ending their executions silently; pan's -E drops deadlocks. */
#ifndef ORDO_REPORT_P1
#define ORDO_REPORT_P1 1
#endif
#ifndef ORDO_REPORT_P2
#define ORDO_REPORT_P2 1
#endif
