/// The payload-size histogram of one vendor as inline SVG (see `RunReport`).
///
/// One bar per `PayloadSizes` bucket, its count written above it (rotated, so wide counts do
/// not collide); the vendor's whole-payload budget as a dashed, labelled line, and the bars of
/// buckets past it hatched, so the chart reads the same in black and white.
enum ReportChart {
  private static let width = 520
  private static let height = 230
  private static let left = 14
  private static let right = 14
  private static let top = 58
  private static let bottom = 34

  /// Appends the `<svg>` of `vendor`'s `counts` (`PayloadSizes.buckets` of them).
  static func histogram(
    vendor: VendorID, counts: [Int], limits: VendorLimits, into page: inout ReportPage
  ) {
    let name = vendor.name
    let plotWidth = Double(width - left - right)
    let plotHeight = Double(height - top - bottom)
    let barWidth = plotWidth / Double(PayloadSizes.buckets)
    let bucketBytes = Double(1 << PayloadSizes.bucketShift)
    let largest = max(1, counts.max() ?? 0)
    let baseline = Double(height - bottom)
    // The x of a byte size on the bounded part of the axis.
    func x(bytes: Int) -> Double { Double(left) + Double(bytes) / bucketBytes * barWidth }

    page.raw(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"histogram\" data-vendor=\"\(name)\" "
        + "viewBox=\"0 0 \(width) \(height)\" role=\"img\" "
        + "aria-label=\"Payload bytes of \(name): one bar per size bucket\">\n")
    page.raw(
      "<defs><pattern id=\"hatch-\(name)\" width=\"6\" height=\"6\" "
        + "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
        + "<rect width=\"6\" height=\"6\" fill=\"#ffffff\"/>"
        + "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#1b1f24\" stroke-width=\"2.5\"/>"
        + "</pattern></defs>\n")
    let budget = limits.payloadBytes
    for (index, count) in counts.enumerated() where count > 0 {
      let barHeight = max(2, (Double(count) / Double(largest) * plotHeight).rounded())
      let barX = Double(left) + Double(index) * barWidth
      let lowerBound = index << PayloadSizes.bucketShift
      let over = budget.map { lowerBound >= $0 } ?? false
      page.raw("<g class=\"bucket\" data-bucket=\"\(index)\">")
      page.raw(
        "<rect class=\"bar\(over ? " over" : "")\" x=\"\(fixed(barX + 1))\" "
          + "y=\"\(fixed(baseline - barHeight))\" width=\"\(fixed(barWidth - 2))\" "
          + "height=\"\(fixed(barHeight))\""
          + (over ? " fill=\"url(#hatch-\(name))\"" : "") + "/>")
      let labelX = barX + barWidth / 2 + 3.5
      let labelY = baseline - barHeight - 3
      page.raw(
        "<text class=\"count\" x=\"\(fixed(labelX))\" y=\"\(fixed(labelY))\" "
          + "transform=\"rotate(-90 \(fixed(labelX)) \(fixed(labelY)))\" "
          + "data-stat=\"payload_bytes.counts.\(name).\(index)\">\(ReportPage.grouped(count))"
          + "</text></g>\n")
    }
    // The axis: every 1024 bytes labelled, and the overflow bar named.
    page.raw(
      "<line class=\"axis\" x1=\"\(left)\" y1=\"\(fixed(baseline))\" "
        + "x2=\"\(width - right)\" y2=\"\(fixed(baseline))\"/>\n")
    for bytes in stride(from: 0, through: PayloadSizes.upperBounds.last!, by: 1024) {
      let tickX = fixed(x(bytes: bytes))
      page.raw(
        "<line class=\"axis\" x1=\"\(tickX)\" y1=\"\(fixed(baseline))\" x2=\"\(tickX)\" "
          + "y2=\"\(fixed(baseline + 4))\"/>"
          + "<text x=\"\(tickX)\" y=\"\(fixed(baseline + 16))\" text-anchor=\"middle\">"
          + "<tspan data-bound=\"tick\">\(bytes)</tspan></text>\n")
    }
    let overflowX = fixed(Double(left) + (Double(PayloadSizes.buckets) - 0.5) * barWidth)
    page.raw(
      "<text x=\"\(overflowX)\" y=\"\(fixed(baseline + 28))\" text-anchor=\"middle\">more"
        + "</text>\n<text x=\"\(fixed(x(bytes: 2560)))\" y=\"\(fixed(baseline + 28))\" "
        + "text-anchor=\"middle\">bytes per payload</text>\n")
    // Budgets: the dashed line and its label.
    var marks: [(bytes: Int, label: String)] = []
    if let budget { marks.append((budget, "budget")) }
    if let voip = limits.voipPayloadBytes { marks.append((voip, "VoIP")) }
    for (rank, mark) in marks.enumerated() {
      let markX = fixed(x(bytes: mark.bytes))
      let labelY = 14 + rank * 14
      page.raw(
        "<line class=\"budget-line\" x1=\"\(markX)\" y1=\"\(labelY + 3)\" x2=\"\(markX)\" "
          + "y2=\"\(fixed(baseline))\"/>"
          + "<text x=\"\(fixed(x(bytes: mark.bytes) - 4))\" y=\"\(labelY)\" "
          + "text-anchor=\"end\">\(mark.label) <tspan data-bound=\"budget\">\(mark.bytes)"
          + "</tspan></text>\n")
    }
    if counts.allSatisfy({ $0 == 0 }) {
      page.raw(
        "<text x=\"\(width / 2)\" y=\"\(fixed(baseline - plotHeight / 2))\" "
          + "text-anchor=\"middle\">no payloads</text>\n")
    }
    page.raw("</svg>\n")
  }

  /// A coordinate (never negative) with one decimal, so the page does not depend on float
  /// printing; integer arithmetic, since a chart has a few hundred of them.
  private static func fixed(_ value: Double) -> String {
    let tenths = Int((max(0, value) * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
}
