#include "tools/ordo/design_options.hpp"

#include "tools/ordo/bound_options.hpp"

namespace ordo::tools {

namespace {

// 25MiB, 64KiB or plain bytes, read as every byte count is (bound_options.hpp). The range is
// designs::check_config's, as for every knob.
void add_size_option(CLI::App* sub, const std::string& name, std::uint64_t& bytes,
                     const std::string& help) {
  sub->add_option(name, bytes, help)->transform(byte_count(0))->capture_default_str();
}

}  // namespace

void add_design_options(CLI::App* sub, PathOptions& paths, std::string& design,
                        designs::DesignConfig& config, const std::string& design_help) {
  paths.not_a_path(sub->add_option("--design", design, design_help + designs::design_names())
                       ->capture_default_str());
  sub->add_option("--comm-threads", config.comm_threads,
                  "threads of the comm pool (nonblocking issues from one)");
  sub->add_option("--ncomm", config.ncomm, "concom: communicators");
  sub->add_option("--outstanding", config.outstanding, "concom: keys between barriers");
  add_size_option(sub, "--bucket-size", config.bucket_bytes,
                  "fused: bytes of gradients per bucket, 1 to 4GiB (e.g. 25MiB, 64KiB)");
  add_size_option(sub, "--slice-size", config.slice_bytes,
                  "priority: bytes per slice of a key, 1 to 4GiB");
  add_size_option(sub, "--credit-size", config.credit_bytes,
                  "priority: bytes of slices released into the chain at each push, 1 to 4GiB");
  sub->add_option("--shards", config.shards,
                  "sharded: the ranks each weight is split over, the job's rank count (ordo train "
                  "takes the world's)");
  sub->add_option("--nodes", config.nodes,
                  "hierarchical: nodes of the job (ordo train takes the layout MPI reports)");
  sub->add_option("--node-ranks", config.node_ranks,
                  "hierarchical: ranks per node; node n holds ranks n*P to n*P+P-1");
  sub->add_flag("!--no-order-guard", config.order_guard,
                "fused, nonblocking, sharded, hierarchical and priority: leave out what orders "
                "the collectives (the chain, the main thread's wait), as a hurried implementation "
                "would");
}

}  // namespace ordo::tools
