// In-place buffers change where the sum is formed, not the ordering the checker reasons about:
// each design's in-place program is its paper program with every buffer renamed to its
// gradient, the copies gone, and a fence where the main thread waits for the buffer.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/designs/step_builder.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::designs {
namespace {

// "buf.<param>" and "grad.<param>" name one var once the buffer is the gradient.
std::string renamed(const dag::Program& p, dag::VarId id) {
  const std::string& name = p.vars.at(id).name;
  return name.rfind("buf.", 0) == 0 ? "grad." + name.substr(4) : name;
}

// A var list after renaming, without the vars of `minus` (naive's out-of-place allreduce reads
// the gradient it then writes: in place, the write alone orders it).
std::string var_list(const dag::Program& p, const std::vector<dag::VarId>& vars,
                     const std::vector<dag::VarId>& minus = {}) {
  std::string out = "{";
  for (dag::VarId v : vars) {
    bool dropped = false;
    for (dag::VarId m : minus) dropped = dropped || renamed(p, m) == renamed(p, v);
    if (!dropped) out += renamed(p, v) + " ";
  }
  return out + "}";
}

std::string collective_text(const dag::Collective& c) {
  return "kind " + std::to_string(static_cast<int>(c.kind)) + " comm " + std::to_string(c.comm) +
         " key " + std::to_string(c.key) + " count " + std::to_string(c.count);
}

// What the checker's rules see of a program, in main-thread order, with buffers renamed. A
// stage is the op that puts the gradient into the buffer: the paper's push copy or, in place,
// its fence. Pull copies are left out: in place they are copies of a var onto itself.
std::vector<std::string> skeleton(const dag::Program& p, bool keep_stages) {
  std::vector<std::string> out;
  for (const dag::Action& a : p.main) {
    if (const auto* submit = std::get_if<dag::SubmitAction>(&a)) {
      const dag::Op& op = p.ops.at(submit->op);
      const bool copy = op.kind == dag::OpKind::copy;
      const bool fence = op.name.find("fence.") != std::string::npos;
      if (copy && op.name.find("pull.") != std::string::npos) continue;
      if (copy || fence) {
        if (keep_stages) {
          out.push_back("stage " + var_list(p, op.writes) + " pool " + std::to_string(op.pool));
        }
        continue;
      }
      std::string text = "op " + var_list(p, op.reads, op.writes) + " -> " +
                         var_list(p, op.writes) + " pool " + std::to_string(op.pool);
      if (op.collective) text += " " + collective_text(*op.collective);
      out.push_back(text);
    } else if (const auto* wait = std::get_if<dag::WaitToReadAction>(&a)) {
      out.push_back("wait " + renamed(p, wait->var));
    } else if (std::holds_alternative<dag::WaitForAllAction>(a)) {
      out.push_back("wait for all");
    } else if (const auto* c = std::get_if<dag::CollectiveAction>(&a)) {
      out.push_back("main " + collective_text(c->collective) + " on " +
                    (c->buffer ? renamed(p, *c->buffer) : std::string("-")));
    }
  }
  return out;
}

dag::Program program(const networks::Network& network, DesignConfig config, BufferMode buffers) {
  config.buffers = buffers;
  return build_step_job(network, config, {true, 2}).programs.at(0);
}

bool waits_for_buffer(DesignKind kind) {
  return kind == DesignKind::funnel || kind == DesignKind::concom ||
         kind == DesignKind::nonblocking;
}

std::vector<DesignConfig> configs() {
  std::vector<DesignConfig> out;
  for (DesignKind kind : {DesignKind::naive, DesignKind::funnel, DesignKind::concom,
                          DesignKind::depcha, DesignKind::fused, DesignKind::nonblocking}) {
    DesignConfig c;
    c.kind = kind;
    c.ncomm = 2;
    c.outstanding = 3;
    c.bucket_bytes = std::uint64_t{25} << 20;  // fused: no key fills a bucket alone
    out.push_back(c);
  }
  return out;
}

TEST(KvstoreInPlace, EachDesignIsItsPaperProgramWithBuffersRenamedToGradients) {
  for (const networks::Network& network : {networks::mlp(3, 4, 10.0), networks::resnet50(1000.0)}) {
    for (const DesignConfig& config : configs()) {
      const dag::Program in_place = program(network, config, BufferMode::in_place);
      const dag::Program copy = program(network, config, BufferMode::copy);
      // funnel, concom and nonblocking wait for the buffer, so in place their stage is a fence;
      // depcha's and naive's main thread never waits for it, and in place they have no stage at
      // all. fused copies each key into its buffer at its push with copy buffers only, and packs
      // and unpacks in both modes: its copies are left out on both sides.
      const bool fused = config.kind == DesignKind::fused;
      const bool stages = waits_for_buffer(config.kind);
      EXPECT_EQ(skeleton(in_place, !fused), skeleton(copy, stages))
          << network.name << " " << describe(config);
    }
  }
}

TEST(KvstoreInPlace, NoBufferVarsNoCopiesAndEveryReductionWritesItsGradient) {
  for (const DesignConfig& config : configs()) {
    if (config.kind == DesignKind::fused) continue;  // its buckets are buffers in both modes
    const dag::Program p = program(networks::mlp(3, 4, 10.0), config, BufferMode::in_place);
    for (const dag::Var& v : p.vars) EXPECT_NE(v.kind, dag::VarKind::buffer) << v.name;
    std::size_t fences = 0;
    std::size_t allreduces = 0;
    for (const dag::Op& op : p.ops) {
      EXPECT_NE(op.kind, dag::OpKind::copy) << op.name;
      if (op.name.find("fence.") != std::string::npos) {
        ++fences;
        ASSERT_EQ(op.writes.size(), 1u);
        EXPECT_TRUE(op.reads.empty());
        EXPECT_EQ(op.cost_us, 0.0);
      }
      if (!op.collective || op.collective->kind != dag::CollectiveKind::allreduce) continue;
      ++allreduces;
      ASSERT_FALSE(op.writes.empty());
      EXPECT_EQ(p.vars.at(op.writes[0]).name.rfind("grad.", 0), 0u) << op.name;
      EXPECT_TRUE(op.reads.empty()) << op.name;
    }
    for (const dag::Action& a : p.main) {
      const auto* c = std::get_if<dag::CollectiveAction>(&a);
      if (c == nullptr || c->collective.kind != dag::CollectiveKind::allreduce) continue;
      ++allreduces;
      EXPECT_EQ(p.vars.at(c->buffer.value()).name.rfind("grad.", 0), 0u);
    }
    EXPECT_EQ(allreduces, 2u * 6u) << describe(config);  // 2 steps x 6 keys
    EXPECT_EQ(fences, waits_for_buffer(config.kind) ? 2u * 6u : 0u) << describe(config);
  }
}

TEST(KvstoreInPlace, FusedUnpacksIntoTheGradientsAndHasNoOtherCopies) {
  DesignConfig config = configs().at(4);
  ASSERT_EQ(config.kind, DesignKind::fused);
  const dag::Program p = program(networks::mlp(3, 4, 10.0), config, BufferMode::in_place);
  for (const dag::Var& v : p.vars) {
    if (v.kind == dag::VarKind::buffer) {
      EXPECT_EQ(v.name.rfind("bucket.", 0), 0u) << v.name;
    }
  }
  std::size_t unpacked = 0;
  for (const dag::Op& op : p.ops) {
    if (op.kind != dag::OpKind::copy) continue;
    const bool pack = op.name.find("pack.") != std::string::npos;
    ASSERT_TRUE(pack) << op.name;  // "unpack." contains "pack." too; nothing else copies
    if (op.name.find("unpack.") == std::string::npos) continue;
    for (dag::VarId v : op.writes) {
      EXPECT_EQ(p.vars.at(v).name.rfind("grad.", 0), 0u) << op.name;
      ++unpacked;
    }
  }
  EXPECT_EQ(unpacked, 2u * 6u);  // 2 steps x 6 keys, each unpacked once
}

}  // namespace
}  // namespace ordo::designs
