#include "checker/promela/instance.hpp"

#include <string>
#include <variant>

#include "checker/promela/signatures.hpp"

namespace ordo::checker::promela {

namespace {

// Names are arbitrary UTF-8; inside a Promela comment only printable ASCII without "*/" is safe.
std::string comment_text(const std::string& name) {
  std::string out;
  for (const char c : name) {
    const bool printable = c >= ' ' && c <= '~';
    out.push_back(printable ? c : '?');
    if (out.size() >= 2 && out.compare(out.size() - 2, 2, "*/") == 0) out.back() = '?';
  }
  return out;
}

const char* kind_macro(dag::OpKind kind) {
  switch (kind) {
    case dag::OpKind::collective:
      return "K_BLOCKING";
    case dag::OpKind::async_collective:
      return "K_ASYNC";
    case dag::OpKind::compute:
    case dag::OpKind::copy:
      break;
  }
  return "K_SYNC";
}

void define(std::ostream& out, const char* name, std::uint64_t value) {
  out << "#define " << name << ' ' << value << '\n';
}

class InitWriter {
 public:
  InitWriter(std::ostream& out, const System& model) : out_(out), model_(model) {}

  void write() {
    out_ << "init {\n  d_step {\n";
    for (dag::Rank r = 0; r < model_.ranks(); ++r) write_rank(r);
    for (dag::CommId c = 0; c < model_.comms(); ++c) write_comm(c);
    out_ << "    skip\n  }\n  atomic {\n";
    for (dag::Rank r = 0; r < model_.ranks(); ++r) write_runs(r);
    // Where a call may return early, deadlocks are judged once every call waits for its match.
    if (compute_bounds(model_).early) out_ << "    run Sync();\n";
    out_ << "  }\n}\n";
  }

 private:
  void write_rank(dag::Rank r) {
    const dag::Program& p = model_.program(r);
    out_ << "    /* rank " << r << ": program '" << comment_text(p.name) << "' */\n";
    out_ << "    nops[" << r << "] = " << p.ops.size() << "; nact[" << r << "] = " << p.main.size()
         << ";\n";
    for (dag::PoolId pool = 0; pool < p.pools.size(); ++pool) {
      const dag::Pool& desc = p.pools[pool];
      out_ << "    pool_kind[POOLX(" << r << ", " << pool
           << ")] = " << (desc.kind == dag::PoolKind::priority ? "POOL_PRIORITY" : "POOL_FIFO")
           << "; pool_threads[POOLX(" << r << ", " << pool << ")] = " << desc.threads << ";  /* '"
           << comment_text(desc.name) << "' */\n";
    }
    for (dag::OpId op = 0; op < p.ops.size(); ++op) write_op(r, op, p.ops[op]);
    std::uint32_t submits = 0;
    for (std::uint32_t a = 0; a < p.main.size(); ++a) {
      write_action(r, a, p.main[a], p);
      if (const auto* submit = std::get_if<dag::SubmitAction>(&p.main[a])) {
        out_ << "    submit_order[OPX(" << r << ", " << submits++ << ")] = " << submit->op << ";\n";
      }
    }
  }

  void write_op(dag::Rank r, dag::OpId op, const dag::Op& desc) {
    const std::string at = "[OPX(" + std::to_string(r) + ", " + std::to_string(op) + ")]";
    out_ << "    /* op " << op << " '" << comment_text(desc.name) << "' */\n";
    out_ << "    op_kind" << at << " = " << kind_macro(desc.kind) << "; op_pool" << at << " = "
         << desc.pool << "; op_prio" << at << " = " << desc.priority << "; op_nacc" << at << " = "
         << desc.reads.size() + desc.writes.size() << ";\n";
    if (desc.collective) {
      out_ << "    op_comm" << at << " = " << desc.collective->comm << "; op_sig" << at << " = "
           << signatures_.id(*desc.collective,
                             comm::call_blocks(model_.backend(),
                                               desc.kind == dag::OpKind::collective))
           << ";\n";
      write_early("op", at, *desc.collective);
    }
    // The rules append reads first, then writes, each in the order listed.
    std::uint32_t i = 0;
    for (const dag::VarId v : desc.reads) write_access(r, op, i++, v, false);
    for (const dag::VarId v : desc.writes) write_access(r, op, i++, v, true);
  }

  void write_access(dag::Rank r, dag::OpId op, std::uint32_t i, dag::VarId var, bool write) {
    const std::string at =
        "[ACCX(" + std::to_string(r) + ", " + std::to_string(op) + ", " + std::to_string(i) + ")]";
    out_ << "    acc_var" << at << " = " << var << "; acc_write" << at << " = " << (write ? 1 : 0)
         << ";  /* " << (write ? "writes" : "reads") << " '"
         << comment_text(model_.program(r).vars.at(var).name) << "' */\n";
  }

  void write_action(dag::Rank r, std::uint32_t a, const dag::Action& action,
                    const dag::Program& p) {
    const std::string at = "[ACTX(" + std::to_string(r) + ", " + std::to_string(a) + ")]";
    out_ << "    act_kind" << at << " = ";
    if (const auto* submit = std::get_if<dag::SubmitAction>(&action)) {
      out_ << "A_SUBMIT; act_arg" << at << " = " << submit->op << ";  /* submit '"
           << comment_text(p.ops.at(submit->op).name) << "' */\n";
    } else if (const auto* wait = std::get_if<dag::WaitToReadAction>(&action)) {
      out_ << "A_WAIT_READ; act_arg" << at << " = " << wait->var << ";  /* wait to read '"
           << comment_text(p.vars.at(wait->var).name) << "' */\n";
    } else if (std::holds_alternative<dag::WaitForAllAction>(action)) {
      out_ << "A_WAIT_ALL;\n";
    } else {
      const dag::Collective& call = std::get<dag::CollectiveAction>(action).collective;
      out_ << "A_COLLECTIVE; act_comm" << at << " = " << call.comm << "; act_sig" << at << " = "
           // A main thread's call always blocks on MPI; on a stream-ordered backend none does.
           << signatures_.id(call, comm::call_blocks(model_.backend(), true)) << ";\n";
      write_early("act", at, call);
    }
  }

  // How the call may return before its match (early_kind), and its root: only where it may.
  void write_early(const char* table, const std::string& at, const dag::Collective& call) {
    const std::uint32_t early = early_kind(model_, call);
    if (early == 0) return;
    out_ << "    " << table << "_early" << at << " = " << early << "; " << table << "_root" << at
         << " = " << call.root.value_or(0) << ";\n";
  }

  void write_comm(dag::CommId c) {
    const std::vector<dag::Rank>& members = model_.members(c);
    out_ << "    /* communicator " << c << " '" << comment_text(model_.job().comms.at(c).name)
         << "' */\n";
    out_ << "    comm_size[" << c << "] = " << members.size() << ";\n";
    for (dag::Rank r = 0; r < model_.ranks(); ++r) {
      out_ << "    member_of[MEMX(" << c << ", " << r << ")] = ";
      const std::int64_t m = model_.member_of(c, r);
      if (m < 0) {
        out_ << "NONE;\n";
      } else {
        out_ << m << "; rank_of[RANKX(" << c << ", " << m << ")] = " << r << ";\n";
      }
    }
  }

  void write_runs(dag::Rank r) {
    const dag::Program& p = model_.program(r);
    out_ << "    run Main(" << r << ");\n";
    for (dag::PoolId pool = 0; pool < p.pools.size(); ++pool) {
      for (std::uint32_t t = 0; t < p.pools[pool].threads; ++t) {
        out_ << "    run Thread(" << r << ", " << pool << ", " << t << ");\n";
      }
    }
    for (dag::OpId op = 0; op < p.ops.size(); ++op) {
      if (p.ops[op].kind == dag::OpKind::async_collective) {
        out_ << "    run AsyncOp(" << r << ", " << op << ");\n";
      }
    }
  }

  std::ostream& out_;
  const System& model_;
  Signatures signatures_;
};

}  // namespace

void write_defines(std::ostream& out, const Bounds& b, comm::Backend backend) {
  // Stream-ordered completion (docs/semantics.md, D1-D3): collectives.pml's ORDO_STREAMS parts.
  define(out, "ORDO_STREAMS", comm::stream_ordered(backend) ? 1 : 0);
  // Calls that may return before their match (docs/semantics.md, C4): the ORDO_EARLY parts.
  define(out, "ORDO_EARLY", b.early ? 1 : 0);
  define(out, "NSTREAM", b.stream);
  define(out, "NRANKS", b.ranks);
  define(out, "NCOMMS", b.comms);
  define(out, "NOPS", b.ops);
  define(out, "NVARS", b.vars);
  define(out, "NPOOLS", b.pools);
  define(out, "NACTIONS", b.actions);
  define(out, "NACC", b.accesses);
  define(out, "NTHREADS", b.threads);
  define(out, "VQ", b.var_queue);
  define(out, "RQ", b.run_queue);
  define(out, "NMEMBERS", b.members);
  define(out, "NSEQ", b.calls);
  // Promela array sizes must be literals, so the flattened sizes are spelled out.
  define(out, "T_OPS", std::uint64_t{b.ranks} * b.ops);
  define(out, "T_ACC", std::uint64_t{b.ranks} * b.ops * b.accesses);
  define(out, "T_ACTS", std::uint64_t{b.ranks} * b.actions);
  define(out, "T_POOLS", std::uint64_t{b.ranks} * b.pools);
  define(out, "T_MEMBERS", std::uint64_t{b.comms} * b.ranks);
  define(out, "T_RANKS_OF", std::uint64_t{b.comms} * b.members);
  define(out, "T_ISSUERS", std::uint64_t{b.members} * b.calls);
}

void write_init(std::ostream& out, const System& model) { InitWriter(out, model).write(); }

}  // namespace ordo::checker::promela
