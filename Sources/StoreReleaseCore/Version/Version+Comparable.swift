extension Version: Equatable {
    /// Whether two versions mean the same release: `1.2 == 1.2.0 == 01.2`.
    ///
    /// SemVer build metadata is ignored (`1.0.0+a == 1.0.0+b`). The scheme and the text do not
    /// matter.
    @inlinable
    public static func == (lhs: Version, rhs: Version) -> Bool {
        if case .packed(let high, let low) = lhs.storage, case .packed(let otherHigh, let otherLow) = rhs.storage {
            return high == otherHigh && low == otherLow
        }
        return lhs.storage == rhs.storage
    }
}

extension Version: Hashable {
    /// Hashes the canonical form, so equal versions hash equally.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage)
    }
}

extension Version: Comparable {
    /// Release order: core components compared as numbers from the left.
    ///
    /// A missing component counts as zero; then a SemVer pre-release sorts below its release, and
    /// pre-release identifiers follow SemVer 2.0.0 §11.
    ///
    /// - Complexity: O(1) for packed App Store versions; otherwise O(*n*) in the components.
    @inlinable
    public static func < (lhs: Version, rhs: Version) -> Bool {
        // The common case inline, so sorting an array compares words in place without copying.
        if case .packed(let high, let low) = lhs.storage, case .packed(let otherHigh, let otherLow) = rhs.storage {
            return high != otherHigh ? high < otherHigh : low < otherLow
        }
        return lhs.order(relativeTo: rhs) == .less
    }
}

/// The result of a three-way comparison.
@usableFromInline
enum Order: Sendable {
    case less, equal, greater

    init<T: Comparable>(_ lhs: T, _ rhs: T) {
        self = lhs < rhs ? .less : (lhs == rhs ? .equal : .greater)
    }
}

extension Version {
    /// Compares two versions in one pass.
    @usableFromInline
    func order(relativeTo other: Version) -> Order {
        if case .packed(let high, let low) = storage, case .packed(let otherHigh, let otherLow) = other.storage {
            return high != otherHigh ? Order(high, otherHigh) : Order(low, otherLow)
        }
        let count = Swift.max(significantCoreCount, other.significantCoreCount)
        for index in 0..<count {
            let order = Order(coreComponent(at: index), other.coreComponent(at: index))
            if order != .equal { return order }
        }
        switch (preRelease.isEmpty, other.preRelease.isEmpty) {
        case (true, true): return .equal
        case (true, false): return .greater
        case (false, true): return .less
        case (false, false):
            let lhs = preRelease
            let rhs = other.preRelease
            for (a, b) in zip(lhs, rhs) where a != b {
                return Order(a, b)
            }
            return Order(lhs.count, rhs.count)
        }
    }
}
