// `nnrt bench --svg`: the latency histogram and one execution's steps by device, drawn as plain SVG
// (no scripts, no external references, no fonts but the generic family), so that it opens anywhere.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "tools/nnrt/bench_report.hpp"

namespace nnrt::tools {
namespace {

constexpr double kWidth = 800;
constexpr double kLeft = 70, kRight = 780;  // the plots' x range
constexpr double kHistogramTop = 70, kHistogramBottom = 250;
constexpr double kLaneHeight = 30;
const char* const kColors[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#edc948"};

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", std::isfinite(v) ? v : 0.0);
  return text;
}

class Svg {
 public:
  void rect(double x, double y, double w, double h, const std::string& fill, const std::string& title = "") {
    out_ += "  <rect x=\"" + number(x) + "\" y=\"" + number(y) + "\" width=\"" + number(std::max(w, 0.0)) +
            "\" height=\"" + number(std::max(h, 0.0)) + "\" fill=\"" + fill + "\"";
    out_ += title.empty() ? "/>\n" : "><title>" + escaped(title) + "</title></rect>\n";
  }
  void line(double x1, double y1, double x2, double y2, const std::string& stroke, bool dashed = false) {
    out_ += "  <line x1=\"" + number(x1) + "\" y1=\"" + number(y1) + "\" x2=\"" + number(x2) + "\" y2=\"" +
            number(y2) + "\" stroke=\"" + stroke + "\"" + (dashed ? " stroke-dasharray=\"4 3\"" : "") +
            "/>\n";
  }
  void text(double x, double y, const std::string& content, const std::string& anchor = "start",
            int size = 12) {
    out_ += "  <text x=\"" + number(x) + "\" y=\"" + number(y) + "\" font-size=\"" + std::to_string(size) +
            "\" text-anchor=\"" + anchor + "\">" + escaped(content) + "</text>\n";
  }
  std::string document(double height) const {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
           number(kWidth) + "\" height=\"" + number(height) + "\" viewBox=\"0 0 " + number(kWidth) + " " +
           number(height) +
           "\" font-family=\"sans-serif\">\n  <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" +
           out_ + "</svg>\n";
  }

 private:
  std::string out_;
};

void histogram(Svg& svg, const BenchReport& report) {
  const Summary& s = report.latencyMs;
  const size_t n = report.latenciesMs.size();
  const size_t bins =
      std::clamp<size_t>(static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(n)))), 1, 40);
  const double lo = s.min;
  const double span = s.max > s.min ? s.max - s.min : std::max(s.min * 0.01, 1e-6);
  std::vector<size_t> counts(bins, 0);
  for (double v : report.latenciesMs) {
    const auto bin =
        static_cast<size_t>(std::max(0.0, std::floor((v - lo) / span * static_cast<double>(bins))));
    ++counts[std::min(bin, bins - 1)];
  }
  const size_t most = std::max<size_t>(1, *std::max_element(counts.begin(), counts.end()));
  const double plotWidth = kRight - kLeft, plotHeight = kHistogramBottom - kHistogramTop;
  const double binWidth = plotWidth / static_cast<double>(bins);
  svg.text(kLeft, kHistogramTop - 12,
           "latency (wall time of ANeuralNetworksExecution_compute), " + std::to_string(n) + " runs", "start",
           13);
  for (size_t b = 0; b < bins; ++b) {
    const double h = plotHeight * static_cast<double>(counts[b]) / static_cast<double>(most);
    const double from = lo + span * static_cast<double>(b) / static_cast<double>(bins);
    const double to = lo + span * static_cast<double>(b + 1) / static_cast<double>(bins);
    svg.rect(kLeft + binWidth * static_cast<double>(b) + 1, kHistogramBottom - h, binWidth - 2, h, kColors[0],
             std::to_string(counts[b]) + (counts[b] == 1 ? " run from " : " runs from ") +
                 durationText(from) + " to " + durationText(to));
  }
  svg.line(kLeft, kHistogramBottom, kRight, kHistogramBottom, "#333");
  svg.line(kLeft, kHistogramTop, kLeft, kHistogramBottom, "#333");
  svg.text(kLeft - 6, kHistogramTop + 4, std::to_string(most), "end", 11);
  svg.text(kLeft - 6, kHistogramBottom, "0", "end", 11);
  svg.text(kLeft, kHistogramBottom + 16, durationText(lo), "start", 11);
  svg.text(kRight, kHistogramBottom + 16, durationText(lo + span), "end", 11);
  struct Marker {
    const char* name;
    double value;
  };
  const Marker markers[] = {{"median", s.median}, {"p90", s.p90}, {"p99", s.p99}};
  for (size_t m = 0; m < 3; ++m) {
    const double x = kLeft + plotWidth * (markers[m].value - lo) / span;
    svg.line(x, kHistogramTop, x, kHistogramBottom, kColors[3], true);
    const bool nearRight = x > kRight - 120;  // label on the line's left, inside the picture
    svg.text(nearRight ? x - 3 : x + 3, kHistogramTop + 12 + 13 * static_cast<double>(m),
             std::string(markers[m].name) + " " + durationText(markers[m].value), nearRight ? "end" : "start",
             11);
  }
}

// Returns the y below the timeline.
double timeline(Svg& svg, const BenchReport& report, double top) {
  svg.text(kLeft, top,
           "steps of run " + std::to_string(report.timelineRun) + " (the run of median latency), by device",
           "start", 13);
  svg.text(kLeft, top + 16,
           "per-step start times are not measured: each device's steps are drawn back to back in plan order,",
           "start", 11);
  svg.text(kLeft, top + 30, "as long as their measured time in the driver (else on hardware)", "start", 11);
  std::vector<std::string> lanes;
  std::vector<double> laneTotal;
  auto durationOf = [](const StepTime& step) {
    return step.inDriverMs ? step.inDriverMs : step.onHardwareMs;
  };
  for (const StepTime& step : report.timeline) {
    size_t lane = std::find(lanes.begin(), lanes.end(), step.device) - lanes.begin();
    if (lane == lanes.size()) {
      lanes.push_back(step.device);
      laneTotal.push_back(0);
    }
    laneTotal[lane] += durationOf(step).value_or(0);
  }
  const double longest = laneTotal.empty() ? 0 : *std::max_element(laneTotal.begin(), laneTotal.end());
  const double scale = longest > 0 ? (kRight - kLeft) / longest : 0;  // pixels per ms
  const double laneTop = top + 44;
  std::vector<double> laneEnd(lanes.size(), 0);
  std::string unmeasured;
  for (size_t s = 0; s < report.timeline.size(); ++s) {
    const StepTime& step = report.timeline[s];
    const size_t lane = std::find(lanes.begin(), lanes.end(), step.device) - lanes.begin();
    const auto ms = durationOf(step);
    if (!ms) {
      unmeasured += (unmeasured.empty() ? "" : ", ") + std::to_string(s);
      continue;
    }
    const double x = kLeft + scale * laneEnd[lane];
    const double w = std::max(scale * *ms, 2.0);  // a step measured as 0 still shows
    const double y = laneTop + kLaneHeight * static_cast<double>(lane);
    svg.rect(x, y + 3, w, kLaneHeight - 6, kColors[1 + s % 6],
             "step " + std::to_string(s) + " on " + step.device + ": " + durationText(*ms));
    if (w > 40) svg.text(x + 4, y + kLaneHeight / 2 + 4, "step " + std::to_string(s), "start", 11);
    laneEnd[lane] += *ms;
  }
  for (size_t lane = 0; lane < lanes.size(); ++lane) {
    const double y = laneTop + kLaneHeight * static_cast<double>(lane);
    svg.text(kLeft - 6, y + kLaneHeight / 2 + 4, lanes[lane], "end", 11);
    svg.line(kLeft, y + kLaneHeight, kRight, y + kLaneHeight, "#ddd");
  }
  double bottom = laneTop + kLaneHeight * static_cast<double>(lanes.size()) + 16;
  if (longest > 0) {
    svg.text(kLeft, bottom, "0", "start", 11);
    svg.text(kRight, bottom, durationText(longest), "end", 11);
    bottom += 18;
  }
  if (!unmeasured.empty()) {
    svg.text(kLeft, bottom, "not measured by their driver, not drawn: step " + unmeasured, "start", 11);
    bottom += 18;
  }
  return bottom;
}

}  // namespace

std::string benchSvg(const BenchReport& report) {
  Svg svg;
  svg.text(kLeft, 24, "nnrt bench " + report.model, "start", 15);
  svg.text(kLeft, 42,
           report.plan + "; compiled in " + durationText(report.compileMs) + "; " +
               std::to_string(report.latenciesMs.size()) + " runs, " + number(report.throughput()) +
               " runs/s",
           "start", 11);
  histogram(svg, report);
  const double bottom = timeline(svg, report, kHistogramBottom + 50);
  return svg.document(bottom + 10);
}

}  // namespace nnrt::tools
