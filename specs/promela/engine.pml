/*
 * ordo's engine and collective semantics in Promela, part 3 of 4: the engine rules.
 *
 * Each inline below is one transition of runtime/engine/rules (Rules::submit, start_next,
 * thread_returned, finish) and runs inside one d_step, so it is one indivisible step exactly as
 * the checker takes it. Ops never fail here: the checker explores executions in which every op
 * succeeds, so poison is not modelled.
 */

/* Scratch for the inlines below; each d_step writes them before reading them. */
hidden byte e_t;
hidden byte e_o;
hidden byte e_w;
hidden byte e_s;
hidden byte e_k;
hidden byte e_a;
hidden byte e_q;
hidden byte e_po;

/* var_compatible: a read needs no write holding the var; a write needs the var free. */
#define COMPATIBLE(r, v, w) \
  (!rk[r].var[v].writing && (!(w) || rk[r].var[v].reads == 0))

inline var_grant(r, v, w) {
  if
  :: w -> rk[r].var[v].writing = 1
  :: else -> rk[r].var[v].reads++
  fi
}

/* One var has granted op o; at zero pending the op becomes ready in the current event. */
inline granted(r, o) {
  rk[r].pending[o]--;
  if
  :: rk[r].pending[o] == 0 -> rk[r].marked[o] = 1
  :: else -> skip
  fi
}

/* var_append: an access is granted at once only when nothing waits ahead of it and the holders
 * are compatible; otherwise it joins the var's FIFO. */
inline var_append(r, v, o, w) {
  if
  :: w -> rk[r].var[v].wsubmitted++
  :: else -> skip
  fi;
  if
  :: rk[r].var[v].qlen == 0 && COMPATIBLE(r, v, w) -> var_grant(r, v, w); rk[r].pending[o]--
  :: else ->
       rk[r].var[v].qop[rk[r].var[v].qlen] = o;
       rk[r].var[v].qwrite[rk[r].var[v].qlen] = w;
       rk[r].var[v].qlen++
  fi
}

/* var_grant_from_head: every consecutive read while no write holds the var, or one write once
 * it is free; a read behind a queued write waits (nothing overtakes a write). */
inline var_grant_from_head(r, v) {
  do
  :: rk[r].var[v].qlen > 0 && COMPATIBLE(r, v, rk[r].var[v].qwrite[0]) ->
       e_o = rk[r].var[v].qop[0];
       e_w = rk[r].var[v].qwrite[0];
       for (e_s : 1 .. rk[r].var[v].qlen - 1) {
         rk[r].var[v].qop[e_s - 1] = rk[r].var[v].qop[e_s];
         rk[r].var[v].qwrite[e_s - 1] = rk[r].var[v].qwrite[e_s]
       }
       rk[r].var[v].qlen--;
       rk[r].var[v].qop[rk[r].var[v].qlen] = 0;
       rk[r].var[v].qwrite[rk[r].var[v].qlen] = 0;
       var_grant(r, v, e_w);
       granted(r, e_o);
       if
       :: e_w -> break
       :: else -> skip
       fi
  :: else -> break
  od
}

/* var_release: a completing op gives back its grant, then the head of the queue is served. */
inline var_release(r, v, w) {
  if
  :: w -> rk[r].var[v].writing = 0; rk[r].var[v].wdone++
  :: else -> rk[r].var[v].reads--
  fi;
  var_grant_from_head(r, v)
}

/* A FIFO pool pops in ready order; a priority pool pops the highest priority first, ties in
 * ready order. The run queue is kept in pop order: a new op goes behind every op it does not
 * overtake. */
inline run_queue_insert(r, p, o) {
  e_q = rk[r].pool[p].nready;
  if
  :: pool_kind[POOLX(r, p)] == POOL_PRIORITY ->
       do
       :: e_q > 0 && op_prio[OPX(r, rk[r].pool[p].rq[e_q - 1])] < op_prio[OPX(r, o)] ->
            rk[r].pool[p].rq[e_q] = rk[r].pool[p].rq[e_q - 1];
            e_q--
       :: else -> break
       od
  :: else -> skip
  fi;
  rk[r].pool[p].rq[e_q] = o;
  rk[r].pool[p].nready++
}

/* The ready-order rule: the ops made ready by one event join their run queues in submit order. */
inline enqueue_marked(r) {
  for (e_k : 0 .. nops[r] - 1) {
    e_po = submit_order[OPX(r, e_k)];
    if
    :: rk[r].marked[e_po] ->
         rk[r].marked[e_po] = 0;
         rk[r].phase[e_po] = READY;
         run_queue_insert(r, op_pool[OPX(r, e_po)], e_po)
    :: else -> skip
    fi
  }
}

inline refresh_lowfree(r, p) {
  rk[r].pool[p].lowfree = NONE;
  for (e_t : 0 .. pool_threads[POOLX(r, p)] - 1) {
    if
    :: rk[r].pool[p].lowfree == NONE && rk[r].pool[p].busy[e_t] == 0 ->
         rk[r].pool[p].lowfree = e_t
    :: else -> skip
    fi
  }
}

/* Rules::submit: the op's accesses join its vars' queues, reads first; the whole submission is
 * one event, so the op turns ready only after every var saw it. */
inline submit_op(r, o) {
  rk[r].phase[o] = WAITING;
  rk[r].pending[o] = op_nacc[OPX(r, o)];
  rk[r].incomplete++;
  for (e_a : 0 .. op_nacc[OPX(r, o)] - 1) {
    var_append(r, acc_var[ACCX(r, o, e_a)], o, acc_write[ACCX(r, o, e_a)])
  }
  if
  :: rk[r].pending[o] == 0 -> rk[r].marked[o] = 1
  :: else -> skip
  fi;
  enqueue_marked(r)
}

/* Pool p can start its next op on thread t: an op is ready and t is its lowest free thread.
 * Threads of one pool are interchangeable; taking the lowest free one is how the checker and
 * the controlled scheduler name them, and loses no schedule. */
#define CAN_START(r, p, t) (rk[r].pool[p].nready > 0 && rk[r].pool[p].lowfree == (t))

/* Rules::start_next: the claim. A compute or copy op's body runs within it; a collective op's
 * body is a later transition of its own (issue_claimed), so between the two another thread of the
 * pool may claim and issue first. Either way the op holds its thread from here. */
inline start_next(r, p, t) {
  e_o = rk[r].pool[p].rq[0];
  for (e_s : 1 .. rk[r].pool[p].nready - 1) {
    rk[r].pool[p].rq[e_s - 1] = rk[r].pool[p].rq[e_s]
  }
  rk[r].pool[p].nready--;
  rk[r].pool[p].rq[rk[r].pool[p].nready] = 0;
  rk[r].thread[e_o] = t;
  rk[r].pool[p].busy[t] = e_o + 1;
  if
  :: op_kind[OPX(r, e_o)] == K_SYNC -> rk[r].phase[e_o] = RUNNING
  :: else -> rk[r].phase[e_o] = CLAIMED
  fi;
  refresh_lowfree(r, p)
}

/* The body of the claimed collective op on thread t of pool p issues its call and returns
 * (thread_returned): an async op's thread is free from then on, a blocking op's stays held
 * until it completes. */
inline issue_claimed(r, p, t) {
  e_o = rk[r].pool[p].busy[t] - 1;
  rk[r].phase[e_o] = ISSUED;
  if
  :: op_kind[OPX(r, e_o)] == K_ASYNC ->
       rk[r].pool[p].busy[t] = 0;
       rk[r].thread[e_o] = 0;
       refresh_lowfree(r, p)
  :: else -> skip
  fi;
  issue(r, op_comm[OPX(r, e_o)], op_sig[OPX(r, e_o)], e_o + 1)
#if ORDO_EARLY
  ;
  rk[r].oseq[e_o] = c_seq
#endif
}

/* Rules::finish: the op releases its vars (reads, then writes), then its thread if it still
 * holds one; the ops this made ready join their queues in submit order. */
inline complete_op(r, o) {
  for (e_a : 0 .. op_nacc[OPX(r, o)] - 1) {
    var_release(r, acc_var[ACCX(r, o, e_a)], acc_write[ACCX(r, o, e_a)])
  }
  rk[r].incomplete--;
  if
  :: op_kind[OPX(r, o)] != K_ASYNC ->
       rk[r].pool[op_pool[OPX(r, o)]].busy[rk[r].thread[o]] = 0;
       rk[r].thread[o] = 0;
       refresh_lowfree(r, op_pool[OPX(r, o)])
  :: else -> skip
  fi;
  rk[r].phase[o] = COMPLETED;
  enqueue_marked(r)
}
