import Foundation
import StoreReleaseTestSupport
import StoreReleaseTooling
import Testing

/// The `openssl` child: found at a fixed place, never through `PATH`, and given no environment.
@Suite struct OpenSSLChildTests {
    @Test func theDefaultIsAKnownAbsolutePathNotAPathSearch() throws {
        let key = try TestKey()
        let signer = try OpenSSLSigner(keyFile: key.privateKey)
        #expect(OpenSSLSigner.knownLocations.contains(signer.executable.path), "\(signer.executable.path)")
        #expect(signer.executable.lastPathComponent == "openssl", "not /usr/bin/env openssl")
        #expect(try signer.sign(Data("message".utf8)).count == 64)
    }

    @Test func theChildGetsAnEmptyEnvironment() throws {
        let key = try TestKey()
        let dump = key.folder.appendingPathComponent("environment")
        let fake = key.folder.appendingPathComponent("dump-env")
        try Data("#!/bin/sh\nenv > '\(dump.path)'\ncat > /dev/null\nexit 3\n".utf8).write(to: fake)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let signer = try OpenSSLSigner(keyFile: key.privateKey, executable: fake)
        #expect {
            try signer.sign(Data("message".utf8))
        } throws: { error in
            "\(error)".contains("could not sign with AuthKey_TESTKEY123.p8 (exit 3)")
        }
        let seen = try String(contentsOf: dump, encoding: .utf8)
        let names = seen.split(separator: "\n").map { $0.prefix { $0 != "=" } }
        #expect(names.filter { $0 != "PWD" && $0 != "SHLVL" && $0 != "_" }.isEmpty, "the parent's variables: \(seen)")
    }

    @Test func aMissingOpenSSLIsNamedWithWhereItWasLookedFor() throws {
        let key = try TestKey()
        let signer = try OpenSSLSigner(
            keyFile: key.privateKey, executable: key.folder.appendingPathComponent("no-such-openssl"))
        #expect {
            try signer.sign(Data("message".utf8))
        } throws: { error in
            let text = "\(error)"
            return text.contains("no openssl at") && text.contains("no-such-openssl")
                && text.contains("/usr/bin/openssl") && text.contains("STORERELEASE_OPENSSL")
        }
    }
}
