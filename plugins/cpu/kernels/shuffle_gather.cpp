#include "plugins/cpu/kernels/shuffle_gather.hpp"

#include <algorithm>

#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/tensor_moves.hpp"

namespace nnrt::cpu {

std::optional<ShuffleGather> ShuffleGather::plan(std::vector<uint32_t> widths, uint32_t groups, size_t rows,
                                                 const std::vector<Range>& ranges, std::string& why) {
  uint64_t channels = 0;
  for (uint32_t w : widths) channels += w;
  if (widths.empty() || groups == 0 || channels == 0 || channels % groups != 0 || channels > UINT32_MAX) {
    why = "the pieces' " + std::to_string(channels) + " channels do not split into " + std::to_string(groups) + " groups";
    return std::nullopt;
  }
  const auto perGroup = static_cast<uint32_t>(channels / groups);
  ShuffleGather g;
  g.groups_ = groups;
  g.rows_ = rows;
  for (const Range& r : ranges) {
    if (r.begin >= r.end || r.end > channels || r.begin % groups != 0 || r.end % groups != 0) {
      why = "channels [" + std::to_string(r.begin) + ", " + std::to_string(r.end) + ") do not start and end at multiples of " +
            std::to_string(groups);
      return std::nullopt;
    }
    Planned planned{r, {}};
    for (uint32_t p = 0; p < groups; ++p) {
      const uint32_t first = p * perGroup + r.begin / groups, last = p * perGroup + r.end / groups;  // [first, last)
      uint32_t piece = 0, offset = 0;
      while (first >= offset + widths[piece]) offset += widths[piece++];
      if (last > offset + widths[piece]) {
        why = "group " + std::to_string(p) + " of channels [" + std::to_string(r.begin) + ", " + std::to_string(r.end) +
              ") reads two pieces";
        return std::nullopt;
      }
      planned.sources.push_back({piece, first - offset});
    }
    g.ranges_.push_back(std::move(planned));
  }
  g.widths_ = std::move(widths);
  return g;
}

void ShuffleGather::run(std::span<const void* const> pieces, std::span<void* const> outputs) const {
  const size_t groups = groups_;
  size_t perRow = 0;
  for (const Planned& r : ranges_) perRow += r.range.end - r.range.begin;
  detail::parallelFor(rows_, perRow, [&](size_t first, size_t last) {
    for (size_t o = 0; o < ranges_.size(); ++o) {
      const Planned& r = ranges_[o];
      const size_t width = r.range.end - r.range.begin, count = width / groups;
      for (size_t row = first; row < last; ++row) {
        auto* to = static_cast<uint32_t*>(outputs[o]) + row * width;
        const auto source = [&](size_t p) {
          const Source& s = r.sources[p];
          return static_cast<const uint32_t*>(pieces[s.piece]) + row * widths_[s.piece] + s.offset;
        };
        if (groups >= 2 && groups <= 4) {  // ShuffleNet's two groups: one vectorized interleaving
          const uint32_t* columns[4];
          for (size_t p = 0; p < groups; ++p) columns[p] = source(p);
          interleaveColumns(columns, groups, count, to);
          continue;
        }
        for (size_t p = 0; p < groups; ++p) {
          const uint32_t* from = source(p);
          for (size_t t = 0; t < count; ++t) to[t * groups + p] = from[t];
        }
      }
    }
  });
}

}  // namespace nnrt::cpu
