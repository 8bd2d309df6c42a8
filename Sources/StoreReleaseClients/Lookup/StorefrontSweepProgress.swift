/// How far a sweep of storefronts has come: the storefronts asked of all it will ask.
///
/// A sweep reports it before its first storefront (`done` 0) and after each one, so a tool can
/// say where a sweep of all 175 storefronts is (it takes about 8 minutes at Apple's limit).
public struct StorefrontSweepProgress: Sendable, Hashable {
    /// The storefronts asked so far.
    public let done: Int
    /// The storefronts the sweep asks in all (this part's, for a shard).
    public let total: Int

    /// Progress of `done` storefronts out of `total`.
    public init(done: Int, total: Int) {
        self.done = done
        self.total = total
    }
}
