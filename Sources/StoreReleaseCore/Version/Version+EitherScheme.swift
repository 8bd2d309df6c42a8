extension Version {
    /// Parses an App Store version (`8.0.10`), or else a SemVer one (`1.0.0-5.2.pre`, `0.9.9+4`).
    ///
    /// upgrader's `[:mav:]` tags may be written either way.
    ///
    /// Either way the version compares as SemVer orders it: a pre-release below its release,
    /// build metadata not counted.
    ///
    /// - Throws: The App Store scheme's ``VersionError`` when the text is neither.
    public init(parsingAppStoreOrSemVer text: String) throws(VersionError) {
        do throws(VersionError) {
            self = try Version(parsing: text)
        } catch {
            guard let semver = try? Version(parsing: text, scheme: .semver) else { throw error }
            self = semver
        }
    }
}
