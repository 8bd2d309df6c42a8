/// A version name that, written as one number, also names a Google Play `versionCode`.
///
/// `8.0.10` names a version; `81` names the version `81` or, where a store knows releases by
/// their codes, the one whose ``VersionCode`` is 81. Which one it is the store's data decide
/// (``resolved(byCode:)``: on Google Play, `81` is `8.0.10` when the release of code 81 is
/// named so); until then it keeps both readings, and says itself as given.
public struct VersionOrCode: Sendable, Hashable, CustomStringConvertible {
    /// The version name, as given.
    public let name: Version
    /// The `versionCode` the name also is, if it is one.
    ///
    /// One number within Play's range (`81`) is one; `8.0.10`, `81.0` or `81-beta` is none
    /// (``VersionCode/init(exactly:)``).
    public let code: VersionCode?

    /// A version name, also the `versionCode` its digits are when it is one number.
    public init(_ name: Version) {
        self.name = name
        code = VersionCode(exactly: name)
    }

    /// Parses a version name (App Store rules: dot-separated numbers).
    ///
    /// - Throws: ``VersionError`` when the text is not a version.
    public init(parsing text: String) throws(VersionError) {
        self.init(try Version(parsing: text))
    }

    /// The version this names, given the versions a store knows by their codes.
    ///
    /// The version of the `versionCode` its digits are, when `version` knows it; else the name.
    ///
    /// - Parameter version: The version of a `versionCode` in the store's data, or `nil` when the
    ///   data have no such code (and on a store without codes).
    /// - Returns: The version the store knows by the code, else the name as given.
    public func resolved(byCode version: (VersionCode) -> Version?) -> Version {
        code.flatMap(version) ?? name
    }

    /// The version as given.
    public var description: String { name.description }
}
