#include "search/params.h"

#include <cmath>

namespace rosen::search {

std::optional<ParamError> validate(const SearchParams& p) {
    if (p.iterations == 0 && p.time_ms == 0)
        return ParamError{"iterations", "iterations: both iterations and time_ms are 0; set at least one budget"};
    if (!std::isfinite(p.exploration) || p.exploration < 0)
        return ParamError{"exploration", "exploration: expected a finite number >= 0"};
    if (!std::isfinite(p.prior_weight) || p.prior_weight < 0)
        return ParamError{"prior_weight", "prior_weight: expected a finite number >= 0"};
    if (p.rollout_cutoff < 0) return ParamError{"rollout_cutoff", "rollout_cutoff: expected 0 (no cut-off) or a positive number of plies"};
    if (!std::isfinite(p.margin_weight) || p.margin_weight < 0 || p.margin_weight > 1)
        return ParamError{"margin_weight", "margin_weight: expected a number in [0, 1]"};
    if (p.threads < 1 || p.threads > 256) return ParamError{"threads", "threads: expected 1..256"};
    if (p.max_nodes < 1000 * uint64_t(p.threads))
        return ParamError{"max_nodes", "max_nodes: expected at least 1000 per thread"};
    if (p.max_nodes > (uint64_t(1) << 31)) return ParamError{"max_nodes", "max_nodes: expected at most 2**31"};
    if (!std::isfinite(p.temperature) || p.temperature <= 0)
        return ParamError{"temperature", "temperature: expected a finite number > 0"};
    if (!std::isfinite(p.hero_cost)) return ParamError{"hero_cost", "hero_cost: expected a finite number"};
    if (!std::isfinite(p.draw_value)) return ParamError{"draw_value", "draw_value: expected a finite number"};
    if (!std::isfinite(p.block_weight)) return ParamError{"block_weight", "block_weight: expected a finite number"};
    if (!std::isfinite(p.eval_scale) || p.eval_scale <= 0)
        return ParamError{"eval_scale", "eval_scale: expected a finite number > 0"};
    return std::nullopt;
}

}  // namespace rosen::search
