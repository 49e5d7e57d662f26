/*
 * ordo's engine and collective semantics in Promela, part 2 of 4: collectives.
 *
 * The n-th call a member issues on a communicator matches the n-th call of every other member
 * (docs/semantics.md, C1). Issuing applies the checks in the order of docs/semantics.md, C5: the
 * thread rule (P2) first, then agreement with the calls already present at that sequence
 * number (P1). A blocking call completes when every member has issued; until then its issuer,
 * an op's thread or the main thread, stays blocked, unless the call may return before its match
 * (ORDO_EARLY: docs/semantics.md, C4), which processes.pml offers as a transition.
 */

/* Scratch for the inlines below; each d_step writes them before reading them. */
hidden byte c_m;
hidden byte c_seq;
hidden byte c_f;
hidden byte c_d;
hidden byte c_r;
hidden byte c_i;

/* Whether an issuer of rank r holds its thread until its call completes: the main thread
 * always does, an op when it is a blocking collective. On streams no launch blocks its issuer
 * (docs/semantics.md, D1), so the thread rule never applies. */
#if ORDO_STREAMS
#define ISSUER_BLOCKS(r, code) 0
#else
#define ISSUER_BLOCKS(r, code) \
  ((code) == MAIN_ISSUER -> 1 : op_kind[OPX(r, (code) - 1)] == K_BLOCKING)
#endif

#if ORDO_EARLY
/* The member's call at `seq` may return before its match: its needs (e, root: op_early and
 * op_root, or act_early and act_root) are met. A bcast root and a reduce non-root need no one; a
 * bcast non-root needs the root. */
#define NEEDS_MET(c, m, seq, e, root) \
  ((e) == 1 -> ((m) == (root) || cm[c].issuer[ISX(root, seq)] != 0) : \
   ((e) == 2 -> (m) != (root) : ((e) == 3 && cm[c].prefix[seq] >= (m))))
#define RETURNED(c, m, seq) cm[c].returned[ISX(m, seq)]
#else
#define RETURNED(c, m, seq) 0
#endif

/* Every member issued call `seq` of communicator c: each member's issuer learns it, in
 * communicator-rank order. The main thread returns from its collective (its pc moves on); an op
 * may now complete. An issuer that returned early has moved on and learns nothing. */
inline deliver(c, seq) {
  for (c_d : 0 .. comm_size[c] - 1) {
    c_r = rank_of[RANKX(c, c_d)];
    c_i = cm[c].issuer[ISX(c_d, seq)];
    if
    :: RETURNED(c, c_d, seq) ->
#if ORDO_EARLY
         cm[c].returned[ISX(c_d, seq)] = 0;
         rk[c_r].early--
#else
         skip
#endif
    :: !RETURNED(c, c_d, seq) && c_i == MAIN_ISSUER -> rk[c_r].blocked = 0; rk[c_r].pc++
    :: !RETURNED(c, c_d, seq) && c_i != MAIN_ISSUER -> rk[c_r].phase[c_i - 1] = FIRED
    fi;
    cm[c].issuer[ISX(c_d, seq)] = 0
  }
  cm[c].sig[seq] = 0;
  cm[c].posted[seq] = 0;
#if ORDO_EARLY
  cm[c].prefix[seq] = 0;
#endif
  cm[c].matched++
}

#if ORDO_STREAMS
/* Scratch for the stream inlines. */
hidden byte s_r;
hidden byte s_c;
hidden byte s_s;
hidden byte s_d;
hidden byte s_x;
hidden byte s_i;
hidden byte s_all;
hidden byte s_moved;

/* D1: a call joins the tail of its rank's stream when it is issued. */
inline launch(r, c, seq) {
  rk[r].scomm[rk[r].slen] = c;
  rk[r].sseq[rk[r].slen] = seq;
  rk[r].smatched[rk[r].slen] = 0;
  rk[r].slen++
}

/* Every member launched call `seq` of c: mark it on each member's stream. */
inline mark_matched(c, seq) {
  for (s_d : 0 .. comm_size[c] - 1) {
    s_x = rank_of[RANKX(c, s_d)];
    for (s_i : 0 .. rk[s_x].slen - 1) {
      if
      :: rk[s_x].scomm[s_i] == c && rk[s_x].sseq[s_i] == seq -> rk[s_x].smatched[s_i] = 1
      :: else -> skip
      fi
    }
  }
}

/* D2: while some matched call is at the head of every member's stream, complete it there: its
 * issuers learn of it (deliver) and each member's stream drops its head. */
inline settle() {
  do
  :: s_moved = 0;
     for (s_r : 0 .. NRANKS - 1) {
       if
       :: rk[s_r].slen > 0 && rk[s_r].smatched[0] ->
            s_c = rk[s_r].scomm[0];
            s_s = rk[s_r].sseq[0];
            s_all = 1;
            for (s_d : 0 .. comm_size[s_c] - 1) {
              s_x = rank_of[RANKX(s_c, s_d)];
              if
              :: rk[s_x].slen == 0 || rk[s_x].scomm[0] != s_c || rk[s_x].sseq[0] != s_s ->
                   s_all = 0
              :: else -> skip
              fi
            }
            if
            :: s_all ->
                 deliver(s_c, s_s);
                 for (s_d : 0 .. comm_size[s_c] - 1) {
                   s_x = rank_of[RANKX(s_c, s_d)];
                   for (s_i : 1 .. rk[s_x].slen - 1) {
                     rk[s_x].scomm[s_i - 1] = rk[s_x].scomm[s_i];
                     rk[s_x].sseq[s_i - 1] = rk[s_x].sseq[s_i];
                     rk[s_x].smatched[s_i - 1] = rk[s_x].smatched[s_i]
                   }
                   rk[s_x].slen--;
                   rk[s_x].scomm[rk[s_x].slen] = 0;
                   rk[s_x].sseq[rk[s_x].slen] = 0;
                   rk[s_x].smatched[rk[s_x].slen] = 0
                 }
                 s_moved = 1
            :: else -> skip
            fi
       :: else -> skip
       fi
     }
     if
     :: !s_moved -> break
     :: else -> skip
     fi
  od
}
#endif

/* Rank r issues a call with signature `call_sig` on communicator c; `code` says who issues. */
inline issue(r, c, call_sig, code) {
  c_m = member_of[MEMX(c, r)];
  c_seq = cm[c].next[c_m];
  cm[c].next[c_m]++;
  /* P2, the MPI thread rule: no call while a blocking call of this member on c is in flight. A
   * non-blocking call in flight has returned, so a later call is ordered after it. */
  p2_thread_rule_kept = 1;
  for (c_f : cm[c].matched .. c_seq - 1) {
    if
    :: ISSUER_BLOCKS(r, cm[c].issuer[ISX(c_m, c_f)]) && !RETURNED(c, c_m, c_f) ->
         p2_thread_rule_kept = 0
    :: else -> skip
    fi
  }
  violated = !p2_thread_rule_kept;
#if ORDO_REPORT_P2
  assert(p2_thread_rule_kept);
#endif
  /* P1, order consistency: the seq-th calls agree (docs/semantics.md, C2). The exporter gives
   * equal signature ids exactly to calls that agree, so that one byte per sequence number
   * decides it: kind, key, count, dtype, reduction, root and whether the call blocks, but not
   * a barrier's key and dtype, labels MPI never sees. Like the checker, a transition that broke the
   * thread rule is not also judged for P1. */
  p1_order_consistent =
    (violated || cm[c].posted[c_seq] == 0 || cm[c].sig[c_seq] == call_sig);
  violated = violated || !p1_order_consistent;
#if ORDO_REPORT_P1
  assert(p1_order_consistent);
#endif
  cm[c].sig[c_seq] = call_sig;
  cm[c].posted[c_seq]++;
  cm[c].issuer[ISX(c_m, c_seq)] = code;
#if ORDO_EARLY
  do
  :: cm[c].prefix[c_seq] < comm_size[c] && cm[c].issuer[ISX(cm[c].prefix[c_seq], c_seq)] != 0 ->
       cm[c].prefix[c_seq]++
  :: else -> break
  od;
#endif
#if ORDO_STREAMS
  launch(r, c, c_seq);
  if
  :: cm[c].posted[c_seq] == comm_size[c] -> mark_matched(c, c_seq); settle()
  :: else -> skip
  fi
#else
  if
  :: cm[c].posted[c_seq] == comm_size[c] -> deliver(c, c_seq)
  :: else -> skip
  fi
#endif
}
