/*
 * ordo's engine and collective semantics in Promela, part 2 of 4: collectives.
 *
 * The n-th call a member issues on a communicator matches the n-th call of every other member
 * (docs/semantics.md, C1). Issuing applies the checks in the order of docs/semantics.md, C5: the
 * thread rule (P2) first, then agreement with the calls already present at that sequence
 * number (P1). A blocking call completes only when every member has issued (the synchronising
 * reading); until then its issuer, an op's thread or the main thread, stays blocked.
 */

/* Scratch for the inlines below; each d_step writes them before reading them. */
hidden byte c_m;
hidden byte c_seq;
hidden byte c_f;
hidden byte c_d;
hidden byte c_r;
hidden byte c_i;

/* Whether an issuer of rank r holds its thread until its call completes: the main thread
 * always does, an op when it is a blocking collective. */
#define ISSUER_BLOCKS(r, code) \
  ((code) == MAIN_ISSUER -> 1 : op_kind[OPX(r, (code) - 1)] == K_BLOCKING)

/* Every member issued call `seq` of communicator c: each member's issuer learns it, in
 * communicator-rank order. The main thread returns from its collective (its pc moves on); an op
 * may now complete. */
inline deliver(c, seq) {
  for (c_d : 0 .. comm_size[c] - 1) {
    c_r = rank_of[RANKX(c, c_d)];
    c_i = cm[c].issuer[ISX(c_d, seq)];
    if
    :: c_i == MAIN_ISSUER -> rk[c_r].blocked = 0; rk[c_r].pc++
    :: else -> rk[c_r].phase[c_i - 1] = FIRED
    fi;
    cm[c].issuer[ISX(c_d, seq)] = 0
  }
  cm[c].sig[seq] = 0;
  cm[c].posted[seq] = 0;
  cm[c].matched++
}

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
    :: ISSUER_BLOCKS(r, cm[c].issuer[ISX(c_m, c_f)]) ->
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
  if
  :: cm[c].posted[c_seq] == comm_size[c] -> deliver(c, c_seq)
  :: else -> skip
  fi
}
