/// What the numbers say about a version on one store.
///
/// Never `healthy` by default: `healthy` is what is left when the source was read, the window
/// holds enough user-days and nothing regressed.
public enum HealthVerdict: Sendable, Hashable {
    /// Read, enough user-days, and no rate above the baseline's interval or the ceiling.
    case healthy
    /// At least one rate is worse than the baseline beyond doubt, or above the ceiling.
    case regressed([HealthRegression])
    /// Fewer user-days than the minimum in the candidate's window, and nothing regressed.
    ///
    /// A first day's spike is not a verdict. Judged as a rollout's rounds
    /// (``SequentialHealthRule``), also a window of enough user-days whose data lean towards a
    /// regression without yet showing one beyond doubt (`userDays` at least `minimum` then).
    case insufficientData(userDays: Int, minimum: Int)
    /// The source could not be read (or lacks what was asked for); the reason says which.
    case unknown(reason: String)

    /// The contract's name: `healthy`, `regressed`, `insufficientData`, `unknown`.
    public var name: String { kind.rawValue }

    /// Which verdict it is, without its data.
    public var kind: Kind {
        switch self {
        case .healthy: .healthy
        case .regressed: .regressed
        case .insufficientData: .insufficientData
        case .unknown: .unknown
        }
    }
}

extension HealthVerdict {
    /// A verdict's name alone, as a snapshot records it and an event compares it.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// ``HealthVerdict/healthy``.
        case healthy
        /// ``HealthVerdict/regressed(_:)``.
        case regressed
        /// ``HealthVerdict/insufficientData(userDays:minimum:)``.
        case insufficientData
        /// ``HealthVerdict/unknown(reason:)``.
        case unknown
    }
}

extension HealthVerdict: Encodable {
    /// Encodes the ``name``; the details are in the reasons next to it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
