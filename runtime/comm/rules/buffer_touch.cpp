#include "runtime/comm/rules/buffer_touch.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "runtime/dag/collective_buffer.hpp"

namespace ordo::comm {

BufferUse buffer_use(const dag::Collective& call, std::optional<std::size_t> member) {
  using K = dag::CollectiveKind;
  if (!member) {
    if (call.kind == K::barrier) return BufferUse::none;
    return call.kind == K::send ? BufferUse::read : BufferUse::write;
  }
  const bool root = call.root && *call.root == *member;
  switch (call.kind) {
    case K::barrier:
      return BufferUse::none;
    case K::send:
      return BufferUse::read;
    case K::recv:
      return BufferUse::write;
    case K::bcast:
    case K::scatter:
      return root ? BufferUse::read : BufferUse::write;  // the root only sends
    case K::reduce:
    case K::gather:
      return root ? BufferUse::write : BufferUse::read;  // a non-root only sends
    case K::allreduce:
    case K::reduce_scatter:
    case K::allgather:
    case K::alltoall:
    case K::scan:
    case K::exscan:
      return BufferUse::write;
  }
  throw std::invalid_argument("a call of an unknown kind");
}

namespace {

bool is_data(const dag::Program& program, dag::VarId v) {
  return v < program.vars.size() && program.vars[v].kind != dag::VarKind::token;
}

// An op body's touch of a var it declares: every byte of it. A var's size is what the dump says;
// the whole range stands for it even where a call's slice is checked against it.
Touch whole(dag::VarId var, bool writes) {
  return Touch{var, 0, std::numeric_limits<std::uint64_t>::max(), writes, false, true};
}

// The call's slice of `var`, as the runtime hands it to the library (exec::collective_slice).
Touch slice(const dag::Collective& call, dag::VarId var, bool writes, bool covered) {
  const std::uint64_t element = dag::dtype_bytes(call.dtype);
  return Touch{var, call.offset * element, call.count * element, writes, true, covered};
}

// Whether a touch is covered (B3) by `held`, the grant its party holds on the var: a write grant
// covers everything, a read grant reads.
bool covered_by(BufferUse held, bool writes) {
  return held == BufferUse::write || (held == BufferUse::read && !writes);
}

// A scatter's or gather's non-root uses its own block only (B2): the runtime hands the library
// that block alone. Every other call (a gather's root and an allgather's members work in place,
// MPI_IN_PLACE, so their whole receive buffer is the library's, their own block included, which
// an implementation may use as scratch) uses its whole slice, and so does a count that does not
// split into the member's blocks: nullopt then.
std::optional<Touch> own_block(const dag::Collective& call, dag::VarId buffer, const Member& member,
                               BufferUse held) {
  using K = dag::CollectiveKind;
  const bool non_root = !(call.root && *call.root == member.index);
  if (!non_root || (call.kind != K::scatter && call.kind != K::gather) || member.size == 0 ||
      member.index >= member.size || call.count % member.size != 0) {
    return std::nullopt;
  }
  const std::uint64_t element = dag::dtype_bytes(call.dtype);
  const std::uint64_t block = call.count / member.size * element;
  const bool writes = call.kind == K::scatter;  // a scatter's non-root receives its block
  return Touch{buffer, call.offset * element + member.index * block,
               block,  writes,
               true,   covered_by(held, writes)};
}

// `held` is the grant the party holds on the buffer: a write (an op that declares it written),
// a read (declared read), or none (the main thread).
void add_call_touches(const dag::Collective& call, std::optional<dag::VarId> buffer,
                      std::optional<dag::VarId> source, std::optional<Member> member,
                      BufferUse held, std::vector<Touch>& out) {
  if (!buffer || call.count == 0) return;
  const BufferUse use =
      buffer_use(call, member ? std::optional<std::size_t>(member->index) : std::nullopt);
  if (use == BufferUse::none) return;
  if (source) {
    // The body copies the source's slice into the buffer's, then issues: both at the issue
    // only, and both covered (the op declares the buffer written and the source read).
    Touch in = slice(call, *buffer, true, true);
    Touch from = slice(call, *source, false, true);
    in.by_call = from.by_call = false;
    in.instant = from.instant = true;
    out.push_back(in);
    out.push_back(from);
  }
  if (!source && member) {
    if (const std::optional<Touch> block = own_block(call, *buffer, *member, held)) {
      if (block->bytes > 0) out.push_back(*block);
      return;
    }
  }
  const bool writes = use == BufferUse::write;
  out.push_back(slice(call, *buffer, writes, covered_by(held, writes)));
}

bool overlap(const Touch& a, const Touch& b) {
  if (a.var != b.var || a.bytes == 0 || b.bytes == 0) return false;
  // [first, first + bytes) without overflow: whole-var touches reach the top of the range.
  const auto end = [](const Touch& t) {
    return t.bytes > std::numeric_limits<std::uint64_t>::max() - t.first
               ? std::numeric_limits<std::uint64_t>::max()
               : t.first + t.bytes;
  };
  return a.first < end(b) && b.first < end(a);
}

std::optional<std::size_t> op_of_party(std::uint64_t party) {
  if (party == 0) return std::nullopt;
  return static_cast<std::size_t>(party - 1);
}

BufferToucher toucher(const dag::Program& program, const std::vector<dag::Communicator>& comms,
                      const PartyTouches& party, const Touch& t) {
  BufferToucher b;
  const std::optional<std::size_t> op = op_of_party(party.party);
  b.party = op ? program.ops.at(*op).name : "main";
  b.writes = t.writes;
  b.first = t.first;
  b.bytes =
      t.bytes == std::numeric_limits<std::uint64_t>::max() ? program.vars.at(t.var).bytes : t.bytes;
  if (t.by_call && party.call != nullptr) {
    b.call = call_of(*party.call);
    if (party.call->comm < comms.size()) b.comm_name = comms[party.call->comm].name;
  }
  return b;
}

}  // namespace

PartyTouches op_touches(const dag::Program& program, dag::OpId op_id,
                        std::optional<Member> member) {
  const dag::Op& op = program.ops.at(op_id);
  PartyTouches p{std::uint64_t{op_id} + 1, {}, nullptr};
  if (!dag::is_collective(op.kind)) {
    for (dag::VarId v : op.reads) {
      if (is_data(program, v)) p.touches.push_back(whole(v, false));
    }
    for (dag::VarId v : op.writes) {
      if (is_data(program, v)) p.touches.push_back(whole(v, true));
    }
    return p;
  }
  if (!op.collective) return p;
  p.call = &*op.collective;
  const dag::CollectiveBuffer b = dag::collective_buffer(op, program.vars);
  add_call_touches(*op.collective, b.buffer, b.source, member,
                   b.buffer_written ? BufferUse::write : BufferUse::read, p.touches);
  return p;
}

PartyTouches main_touches(const dag::Program& program, std::uint32_t action,
                          std::optional<Member> member) {
  PartyTouches p{0, {}, nullptr};
  const auto* call = std::get_if<dag::CollectiveAction>(&program.main.at(action));
  if (call == nullptr) return p;
  p.call = &call->collective;
  std::optional<dag::VarId> buffer = call->buffer;
  if (buffer && !is_data(program, *buffer)) buffer.reset();
  add_call_touches(call->collective, buffer, std::nullopt, member, BufferUse::none, p.touches);
  return p;
}

bool may_race(const dag::Program& program) {
  const auto uncovered = [](const PartyTouches& p) {
    return std::any_of(p.touches.begin(), p.touches.end(),
                       [](const Touch& t) { return !t.covered; });
  };
  for (std::uint32_t a = 0; a < program.main.size(); ++a) {
    if (uncovered(main_touches(program, a, std::nullopt))) return true;
  }
  for (dag::OpId op = 0; op < program.ops.size(); ++op) {
    if (uncovered(op_touches(program, op, std::nullopt))) return true;
  }
  return false;
}

std::optional<BufferRace> first_race(dag::Rank rank, const dag::Program& program,
                                     const std::vector<dag::Communicator>& comms,
                                     const std::vector<PartyTouches>& ongoing,
                                     const PartyTouches& starting, CallOrder order) {
  for (const PartyTouches& other : ongoing) {
    if (other.party == starting.party) continue;
    for (const Touch& a : other.touches) {
      if (a.instant) continue;
      for (const Touch& b : starting.touches) {
        if (!(a.writes || b.writes) || (a.covered && b.covered) || !overlap(a, b)) continue;
        // One stream runs a rank's calls one after another (D1).
        if (order == CallOrder::one_stream && a.by_call && b.by_call) continue;
        BufferRace race;
        race.rank = rank;
        race.var = program.vars.at(a.var).name;
        race.ongoing = toucher(program, comms, other, a);
        race.starting = toucher(program, comms, starting, b);
        return race;
      }
    }
  }
  return std::nullopt;
}

std::optional<BufferRace> OngoingTouches::start(dag::Rank rank, const dag::Program& program,
                                                const std::vector<dag::Communicator>& comms,
                                                PartyTouches starting, CallOrder order) {
  std::optional<BufferRace> race = first_race(rank, program, comms, parties_, starting, order);
  const auto at =
      std::lower_bound(parties_.begin(), parties_.end(), starting.party,
                       [](const PartyTouches& p, std::uint64_t party) { return p.party < party; });
  if (at != parties_.end() && at->party == starting.party) {
    *at = std::move(starting);
  } else {
    parties_.insert(at, std::move(starting));
  }
  return race;
}

void OngoingTouches::end(std::uint64_t party) {
  std::erase_if(parties_, [party](const PartyTouches& p) { return p.party == party; });
}

}  // namespace ordo::comm
