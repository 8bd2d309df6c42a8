import StoreReleaseCore

/// Reading the version out of a Play release name.
///
/// Play keeps no version name in a track: only the release name a person or a tool wrote. Play
/// Console fills in `versionCode (versionName)` (`80 (8.0.2)`); teams also write `8.0.2` or
/// `8.0.2 (80)`; tools that upload through the API often name a release by its versionCode
/// alone (`80`), and people write free text (`Spring release`). The version is read only where
/// the name says it without doubt, never guessed:
///
/// - `8.0.2`: a version, unless it is one of the release's own versionCodes (`80` names no version).
/// - `A (B)`: when one side is one of the release's versionCodes, the other side, if it is a
///   version; when neither is, the side that is not a whole number, if the other one is.
/// - anything else: no version.
public enum PlayReleaseName {
    /// The version a release name carries, or `nil`.
    ///
    /// - Parameters:
    ///   - name: The release name.
    ///   - versionCodes: The release's versionCodes, which a name may repeat.
    /// - Returns: The version, when the name says it without doubt.
    public static func version(in name: String?, versionCodes: [VersionCode]) -> Version? {
        guard let name = name?.trimmingWhitespace, !name.isEmpty else { return nil }
        let codes = Set(versionCodes.map(\.description))
        guard name.last == ")", let open = name.lastIndex(of: "(") else {
            return codes.contains(name) ? nil : Version(name)
        }
        let outer = String(name[..<open]).trimmingWhitespace
        let inner = String(name[name.index(after: open)..<name.index(before: name.endIndex)]).trimmingWhitespace
        if codes.contains(inner) { return codes.contains(outer) ? nil : Version(outer) }
        if codes.contains(outer) { return Version(inner) }
        switch (isWholeNumber(outer), isWholeNumber(inner)) {
        case (true, false): return Version(inner)
        case (false, true): return Version(outer)
        case (true, true), (false, false): return nil
        }
    }

    /// Whether a release carries `wanted` (or newer) or `versionCode` (or higher).
    ///
    /// The version is the one its name carries; the versionCode its highest.
    static func carries(
        version: Version?, versionCodes: [VersionCode], wanted: Version?, versionCode: VersionCode?
    ) -> Bool {
        if let wanted, let version, version >= wanted { return true }
        if let versionCode, let highest = versionCodes.max(), highest >= versionCode { return true }
        return false
    }

    private static func isWholeNumber(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}

extension String {
    /// The string without spaces and tabs at either end.
    fileprivate var trimmingWhitespace: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
