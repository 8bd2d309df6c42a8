extension ReleaseWaiter {
    /// What counts as done, on both stores.
    public enum Until: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Users get the version: some on Play, and App Store Connect has it ready.
        ///
        /// A Play release carrying it serves some users (`inProgress` with a user fraction, or
        /// `completed`; `halted` does not count), and App Store Connect has it ready for
        /// distribution (its phased release may still be under way).
        case live
        /// Every user gets it, on both stores.
        ///
        /// The Play release carrying it is `completed` (no user fraction), and its App Store
        /// phased release is complete, or it has none.
        case complete

        /// Reads the command line's spelling: `live`, `complete` or `phased-complete`.
        ///
        /// `phased-complete`, the old name of `complete` from when only App Store Connect knew
        /// it, is still accepted.
        ///
        /// - Returns: `nil` for any other text.
        public init?(argument: String) {
            if argument == "phased-complete" {
                self = .complete
                return
            }
            guard let until = Self(rawValue: argument) else { return nil }
            self = until
        }

        /// `live` or `complete`.
        public var description: String { rawValue }
    }
}
