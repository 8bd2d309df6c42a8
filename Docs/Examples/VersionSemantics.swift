import StoreReleaseKit

/// The examples of `Docs/StoreReleaseKit.docc/VersionSemantics.md`, in the order the guide
/// shows them. Each claim the guide makes is printed; the docs test compares the output.
func versionSemanticsExamples() throws {
    do {
        let installed = try Version(parsing: "8.0.2")
        let store = try Version(parsing: "8.0.10")
        print(installed < store)  // 10 > 2 as numbers
        print("8.0.2" > "8.0.10")  // ...but not as strings
    }
    do {
        let short = try Version(parsing: "1.2")
        let long = try Version(parsing: "1.2.0")
        print(short == long)
        let padded = try Version(parsing: "01.2.0.0")
        print(padded == short)
        print(Set([short, long, padded]).count == 1)
        print(long.description == "1.2.0")  // kept for display
    }
    do {
        let beta = try Version(parsing: "2.0.0-beta.2", scheme: .semver)
        let rc = try Version(parsing: "2.0.0-rc.1", scheme: .semver)
        let release = try Version(parsing: "2.0.0+build.7", scheme: .semver)
        print(beta < rc && rc < release)
        let plain = try Version(parsing: "2.0.0", scheme: .semver)
        print(release == plain)  // build metadata ignored
    }
    do {
        do {
            _ = try Version(parsing: "1.4 (18)")
        } catch {
            print(error)
            // "1.4 (18)": unexpected character " " at offset 3 (an App Store version is digits separated by '.')
            print(error.reason == .unexpectedCharacter(" ", offset: 3))
        }
        print(Version("abc") == nil)  // never 0.0.0
    }
    do {
        let installed = try Version(parsing: "1.9.9")
        let store = try Version(parsing: "2.0")
        print(store.change(from: installed) == .major)
        let (tenth, first) = (try Version(parsing: "1.10.0"), try Version(parsing: "1.1.0"))
        print(tenth.change(from: first) == .minor)
        let forceUpdate = (store.change(from: installed) ?? .preRelease) >= .minor
        print(forceUpdate)
    }
    do {
        let code = try VersionCode(parsing: "88")
        print(code.rawValue == 88)
        print(VersionCode(rawValue: 0) == nil)  // Play's range is 1...2_100_000_000
    }
    do {
        let input = Array("8.0.10\n8.0.2\n1.2.0\n1.2\n".utf8)
        let output = try VersionLines.sorted(input)
        print(String(decoding: output, as: UTF8.self) == "1.2.0\n1.2\n8.0.2\n8.0.10\n")
    }
}
