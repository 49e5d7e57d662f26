/*
 * ordo's engine and collective semantics in Promela, part 4 of 4: the processes.
 *
 * Per rank: its main thread, one process per pool thread, and one process per async collective
 * op standing for the completion callback that arrives once its call matched. Every transition is
 * one d_step, so the transitions SPIN interleaves are exactly the checker's (docs/semantics.md,
 * S1-S4): a main action, the claim of the op a pool pops next on its lowest free thread, the issue
 * of a claimed collective op's call, or the completion of an op that may complete.
 * Each d_step ends in `skip`: a loop that closes a d_step would have its exit land outside it,
 * which SPIN rejects.
 *
 * End states: a rank is finished when its main thread is past its last action, not blocked, and
 * every op it submitted completed; only then does Main terminate. Pool threads and callbacks
 * always sit at end labels: a thread that holds an op, or a callback still to fire, means an op not
 * completed, which already keeps Main from its end. So SPIN's invalid end state is exactly the
 * checker's stuck state: no transition possible and some rank not finished (P3, or P4 without a
 * collective). After a violation nothing moves and Main may end: the execution is over, and its
 * end is not also reported as a deadlock.
 */

/* Scratch: the op a finishing thread holds, copied before the completion frees the thread. */
hidden byte t_run;
/* Scratch: the main action being taken. */
hidden byte m_act;
hidden byte m_op;

#define ACT(r) act_kind[ACTX(r, rk[r].pc)]
#define WAIT_READ_DONE(r) \
  (rk[r].var[act_arg[ACTX(r, rk[r].pc)]].wdone >= \
   rk[r].var[act_arg[ACTX(r, rk[r].pc)]].wsubmitted)

/* The main thread can take its next action: a submission or a collective at once;
 * wait_to_read(v) once every write submitted to v completed; wait_for_all once no op is
 * incomplete. */
#define MAIN_ENABLED(r) \
  (!rk[r].blocked && rk[r].pc < nact[r] && \
   (ACT(r) == A_SUBMIT || ACT(r) == A_COLLECTIVE || \
    (ACT(r) == A_WAIT_READ && WAIT_READ_DONE(r)) || \
    (ACT(r) == A_WAIT_ALL && rk[r].incomplete == 0)))

#if ORDO_EARLY
/* A rank that returned from a call before its match is, under the synchronising reading
 * deadlocks are judged by, still in it until the match. */
#define RANK_FINISHED(r) \
  (rk[r].pc == nact[r] && !rk[r].blocked && rk[r].incomplete == 0 && rk[r].early == 0)

/* The main thread blocked in its call may return before the match (docs/semantics.md, C4). Its
 * call is its last on the communicator: a later one of its rank would have broken the thread
 * rule. */
#define MAIN_COMM(r) act_comm[ACTX(r, rk[r].pc)]
#define MAIN_MEMBER(r) member_of[MEMX(MAIN_COMM(r), r)]
#define MAIN_SEQ(r) (cm[MAIN_COMM(r)].next[MAIN_MEMBER(r)] - 1)
#define MAIN_MAY_RETURN(r) \
  (!sync_now && rk[r].blocked && \
   NEEDS_MET(MAIN_COMM(r), MAIN_MEMBER(r), MAIN_SEQ(r), act_early[ACTX(r, rk[r].pc)], \
             act_root[ACTX(r, rk[r].pc)]))

inline main_return(r) {
  cm[MAIN_COMM(r)].returned[ISX(MAIN_MEMBER(r), MAIN_SEQ(r))] = 1;
  rk[r].early++;
  rk[r].blocked = 0;
  rk[r].pc++
}

/* Op o's call, issued and unmatched, may return before the match: the op may complete. */
#define OP_COMM(r, o) op_comm[OPX(r, o)]
#define OP_MEMBER(r, o) member_of[MEMX(OP_COMM(r, o), r)]
#define OP_MAY_RETURN(r, o) \
  (!sync_now && rk[r].phase[o] == ISSUED && \
   NEEDS_MET(OP_COMM(r, o), OP_MEMBER(r, o), rk[r].oseq[o], op_early[OPX(r, o)], \
             op_root[OPX(r, o)]))

inline op_return(r, o) {
  cm[OP_COMM(r, o)].returned[ISX(OP_MEMBER(r, o), rk[r].oseq[o])] = 1;
  rk[r].early++;
  complete_op(r, o)
}
#else
#define RANK_FINISHED(r) (rk[r].pc == nact[r] && !rk[r].blocked && rk[r].incomplete == 0)
#endif

inline take_main(r) {
  m_act = ACTX(r, rk[r].pc);
  if
  :: act_kind[m_act] == A_SUBMIT ->
       m_op = act_arg[m_act];
       submit_op(r, m_op);
       rk[r].pc++
  :: act_kind[m_act] == A_COLLECTIVE ->
       /* The pc stays here until the call matched; delivery moves it on. */
       rk[r].blocked = 1;
       issue(r, act_comm[m_act], act_sig[m_act], MAIN_ISSUER)
  :: else -> rk[r].pc++  /* a wait whose condition holds returns at once */
  fi
}

proctype Main(byte r) {
  do
  :: d_step { !violated && MAIN_ENABLED(r) -> take_main(r); skip }
#if ORDO_EARLY
  :: d_step { !violated && MAIN_MAY_RETURN(r) -> main_return(r); skip }
#endif
  :: RANK_FINISHED(r) -> break
  :: violated -> break
  od
}

/* Thread t of pool p holds an op in phase `ph`. */
#define HOLDS(r, p, t, ph) \
  (rk[r].pool[p].busy[t] != 0 && rk[r].phase[rk[r].pool[p].busy[t] - 1] == (ph))

/* The thread's three transitions are told apart by the state alone (free and lowest, holding a
 * claimed collective, holding an op that may complete), so the process needs one location, and
 * it is an end state: whether the rank is stuck is Main's to say. A running compute or copy op
 * may complete at any moment, a blocking collective once its call matched; an async collective
 * is no longer held once it issued. */
proctype Thread(byte r; byte p; byte t) {
end_thread:
  do
  :: d_step { !violated && CAN_START(r, p, t) -> start_next(r, p, t); skip }
  :: d_step { !violated && HOLDS(r, p, t, CLAIMED) -> issue_claimed(r, p, t); skip }
  :: d_step {
       !violated && (HOLDS(r, p, t, RUNNING) || HOLDS(r, p, t, FIRED)) ->
         t_run = rk[r].pool[p].busy[t] - 1;
         complete_op(r, t_run);
         skip
     }
#if ORDO_EARLY
  :: d_step {
       !violated && rk[r].pool[p].busy[t] != 0 && OP_MAY_RETURN(r, rk[r].pool[p].busy[t] - 1) ->
         t_run = rk[r].pool[p].busy[t] - 1;
         op_return(r, t_run);
         skip
     }
#endif
  od
}

/* The completion callback of async collective op o: it may fire any time after the call
 * matched. It stays at its end label afterwards rather than terminate: a process's death is a
 * transition of its own, which would double every state between the completion and the death. */
proctype AsyncOp(byte r; byte o) {
end_wait:
  do
  :: d_step { !violated && rk[r].phase[o] == FIRED -> complete_op(r, o); skip }
#if ORDO_EARLY
  :: d_step { !violated && OP_MAY_RETURN(r, o) -> op_return(r, o); skip }
#endif
  od
}

#if ORDO_EARLY
/* Deadlock freedom is judged under the synchronising reading (docs/semantics.md, C4): a state is
 * stuck when nothing could move but early returns, since a library that makes every call wait
 * for its match hangs there. Sync may set sync_now at any moment, which ends every early return;
 * a state reached with early returns that nothing else can leave then has no move at all, and
 * SPIN reports it as an invalid end state. It sits at an end label once it has set the flag. */
proctype Sync() {
end_sync:
  do
  :: d_step { !sync_now -> sync_now = 1; skip }
  od
}
#endif
