#include "tools/ordo/design_options.hpp"

namespace ordo::tools {

void add_design_options(CLI::App* sub, std::string& design, designs::DesignConfig& config,
                        const std::string& design_help) {
  sub->add_option("--design", design, design_help + designs::design_names())->capture_default_str();
  sub->add_option("--comm-threads", config.comm_threads,
                  "threads of the comm pool (nonblocking issues from one)");
  sub->add_option("--ncomm", config.ncomm, "concom: communicators");
  sub->add_option("--outstanding", config.outstanding, "concom: keys between barriers");
  // 25MiB, 64KiB or plain bytes; "kb" is 1024 bytes, as in the sizes DDP and Horovod are given in.
  // CLI11 runs the transform added last first: a minus sign is refused before the size parser
  // wraps "-5" round to 2^64 - 5. The range is designs::check_config's, as for every knob.
  sub->add_option("--bucket-size", config.bucket_bytes,
                  "fused: bytes of gradients per bucket, 1 to 4GiB (e.g. 25MiB, 64KiB)")
      ->transform(CLI::AsSizeValue(false))
      ->transform(CLI::Validator(
          [](std::string& s) {
            return s.find('-') == std::string::npos ? std::string()
                                                    : "a bucket size is not negative";
          },
          "SIZE"))
      ->capture_default_str();
  sub->add_option("--shards", config.shards,
                  "sharded: the ranks each weight is split over, the job's rank count (ordo train "
                  "takes the world's)");
  sub->add_option("--nodes", config.nodes,
                  "hierarchical: nodes of the job (ordo train takes the layout MPI reports)");
  sub->add_option("--node-ranks", config.node_ranks,
                  "hierarchical: ranks per node; node n holds ranks n*P to n*P+P-1");
  sub->add_flag("!--no-order-guard", config.order_guard,
                "fused, nonblocking, sharded and hierarchical: leave out what orders the "
                "collectives (the chain, the main thread's wait), as a hurried implementation "
                "would");
}

}  // namespace ordo::tools
