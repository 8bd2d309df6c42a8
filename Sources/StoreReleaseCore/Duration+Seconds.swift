/// A duration as a number of seconds, for the APIs that take one (`URLSessionConfiguration`,
/// `Date.addingTimeInterval`) and for text.
extension Duration {
    /// The duration in seconds, fractions included.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
