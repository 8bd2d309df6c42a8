/// A timeline picture asked for at a width it cannot be drawn at.
public struct TimelineChartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The width asked for, in px.
    public let width: Int

    /// `a timeline is 480 to 4000 px wide; 100 asked for`.
    public var description: String {
        "a timeline is \(TimelineChart.widths.lowerBound) to \(TimelineChart.widths.upperBound) px wide; \(width) asked for"
    }
}
