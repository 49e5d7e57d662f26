// The designs' factories; each lives in its own file.
#pragma once

#include <memory>

#include "runtime/designs/design.hpp"

namespace ordo::designs {

std::unique_ptr<Design> make_naive(const DesignConfig& config, dag::ProgramSink& main,
                                   dag::Rank rank);
std::unique_ptr<Design> make_funnel(const DesignConfig& config, dag::ProgramSink& main,
                                    dag::Rank rank);
std::unique_ptr<Design> make_concom(const DesignConfig& config, dag::ProgramSink& main,
                                    dag::Rank rank);
std::unique_ptr<Design> make_depcha(const DesignConfig& config, dag::ProgramSink& main,
                                    dag::Rank rank);
std::unique_ptr<Design> make_fused(const DesignConfig& config, dag::ProgramSink& main,
                                   dag::Rank rank);
std::unique_ptr<Design> make_nonblocking(const DesignConfig& config, dag::ProgramSink& main,
                                         dag::Rank rank);
std::unique_ptr<Design> make_sharded(const DesignConfig& config, dag::ProgramSink& main,
                                     dag::Rank rank);
std::unique_ptr<Design> make_priority(const DesignConfig& config, dag::ProgramSink& main,
                                      dag::Rank rank);
std::unique_ptr<Design> make_hierarchical(const DesignConfig& config, dag::ProgramSink& main,
                                          dag::Rank rank);

}  // namespace ordo::designs
