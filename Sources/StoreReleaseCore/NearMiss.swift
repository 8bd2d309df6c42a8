/// Did-you-mean suggestions for mistyped script verbs, and (through `package` access) the
/// command-line tool's commands and flags. Not public API.
package enum NearMiss {
    /// The candidate closest to a mistyped `name`, if it is within two edits of it.
    package static func closest(to name: String, in candidates: [String]) -> String? {
        guard let best = candidates.min(by: { editDistance($0, name) < editDistance($1, name) }),
            editDistance(best, name) <= 2
        else { return nil }
        return best
    }

    /// The Levenshtein distance between two short strings.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
