import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseCore
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// A P-256 key made with `openssl` for one test run, in a temporary folder.
struct TestKey {
    let folder: URL
    let privateKey: URL
    let publicKey: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("asc-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        privateKey = folder.appendingPathComponent("AuthKey_TESTKEY123.p8")
        publicKey = folder.appendingPathComponent("public.pem")
        try Self.openssl([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", privateKey.path,
        ])
        try Self.openssl(["pkey", "-in", privateKey.path, "-pubout", "-out", publicKey.path])
    }

    /// App Store Connect credentials of this key (key id `TESTKEY123`, issuer `issuer`).
    func credentials() throws -> AppStoreConnectClient.Credentials {
        .key(
            try AppStoreConnectKey(
                keyID: "TESTKEY123", issuerID: "issuer", signer: try OpenSSLSigner(keyFile: privateKey)))
    }

    /// The lines of the private key's PEM body: none may ever be printed.
    var secretLines: [String] {
        let text = (try? String(contentsOf: privateKey, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") }
    }

    /// Runs openssl, with `input` on stdin; returns its exit status.
    @discardableResult
    static func openssl(_ arguments: [String], input: Data = Data()) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Whether `signature` (r‖s) signs `message` for the public half, as openssl verifies it.
    func verifies(_ signature: Data, _ message: Data) throws -> Bool {
        let der = folder.appendingPathComponent("signature-\(UUID().uuidString).der")
        try Self.derSignature(signature).write(to: der)
        return try Self.openssl(
            ["dgst", "-sha256", "-verify", publicKey.path, "-signature", der.path], input: message) == 0
    }

    /// r‖s as DER, the test's own conversion (the reverse of the library's).
    static func derSignature(_ raw: Data) -> Data {
        func integer(_ bytes: Data) -> [UInt8] {
            var value = [UInt8](bytes.drop { $0 == 0 })
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw.prefix(32)) + integer(raw.suffix(32))
        return Data([0x30, UInt8(body.count)] + body)
    }
}

@Suite struct AppStoreConnectTokenTests {
    static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    @Test func aTokenHasApplesShapeAndASignatureOpenSSLVerifies() throws {
        let key = try TestKey()
        let signer = try OpenSSLSigner(keyFile: key.privateKey)
        let connect = try AppStoreConnectKey(
            keyID: "TESTKEY123", issuerID: "57246542-96fe-1a63-e053-0824d011072a", signer: signer)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let token = try connect.token(now: now)
        let jwt = String(token.authorizationHeader.dropFirst("Bearer ".count))
        let parts = jwt.split(separator: ".")
        #expect(parts.count == 3)
        let header =
            try JSONSerialization.jsonObject(with: try #require(Self.base64URLDecoded(parts[0]))) as? [String: Any]
        #expect(
            header?["alg"] as? String == "ES256" && header?["kid"] as? String == "TESTKEY123"
                && header?["typ"] as? String == "JWT")
        let payload =
            try JSONSerialization.jsonObject(with: try #require(Self.base64URLDecoded(parts[1]))) as? [String: Any]
        #expect(payload?["iss"] as? String == "57246542-96fe-1a63-e053-0824d011072a")
        #expect(payload?["aud"] as? String == "appstoreconnect-v1")
        let issued = try #require(payload?["iat"] as? Int)
        let expires = try #require(payload?["exp"] as? Int)
        #expect(issued == 1_800_000_000 - 60, "back-dated a minute against clock skew")
        #expect(expires - issued <= 1200 && expires > 1_800_000_000)
        #expect(!jwt.contains("=") && !jwt.contains("+") && !jwt.contains("/"), "base64url without padding")
        let signature = try #require(Self.base64URLDecoded(parts[2]))
        #expect(signature.count == 64)
        #expect(
            try key.verifies(signature, Data("\(parts[0]).\(parts[1])".utf8)), "openssl verifies it with the public key"
        )
        #expect(try !key.verifies(signature, Data("\(parts[0]).x\(parts[1])".utf8)), "and not another message")
        #expect(try connect.token(now: now, lifetime: 99_999).authorizationHeader != token.authorizationHeader)
    }

    @Test func derSignaturesBecomeRawRAndS() {
        // r with a leading zero byte (its top bit set), s short (fewer than 32 bytes).
        let r = [UInt8](repeating: 0x80, count: 32)
        let s = [UInt8](repeating: 0x01, count: 31)
        let der = Data([0x30, 2 + 33 + 2 + 31, 0x02, 33, 0x00] + r + [0x02, 31] + s)
        #expect(DERSignature.rawRepresentation(der) == Data(r + [0x00] + s))
        #expect(DERSignature.rawRepresentation(Data([0x30, 0x02, 0x02, 0x00])) == nil)
        #expect(DERSignature.rawRepresentation(Data("not der".utf8)) == nil)
        #expect(DERSignature.rawRepresentation(der + Data([0x00])) == nil, "trailing bytes")
    }

    @Test func keyFilesThatAreNotP256PKCS8AreRefusedByName() throws {
        let key = try TestKey()
        let rsa = key.folder.appendingPathComponent("rsa.p8")
        try TestKey.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", rsa.path])
        let secp384 = key.folder.appendingPathComponent("p384.p8")
        try TestKey.openssl([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", secp384.path,
        ])
        let text = key.folder.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: text)
        for (file, message) in [
            (rsa, "is a private key, but not an elliptic-curve key on P-256"),
            (secp384, "is a private key, but not an elliptic-curve key on P-256"),
            (text, "is not a PKCS#8 private key"),
            (key.folder.appendingPathComponent("absent.p8"), "cannot be read as a key file"),
        ] {
            #expect {
                try OpenSSLSigner(keyFile: file)
            } throws: { error in
                let description = "\(error)"
                return description.contains(file.path.debugDescription) && description.contains(message)
            }
        }
        let signer = try OpenSSLSigner(keyFile: key.privateKey)
        #expect(throws: KeyFileError.self) { try AppStoreConnectKey(keyID: "", issuerID: "x", signer: signer) }
        #expect(throws: KeyFileError.self) { try AppStoreConnectKey(keyID: "K", issuerID: "a b", signer: signer) }
    }

    @Test(
        arguments: [
            (PhasedRelease.State.active, 1, 1), (.active, 2, 2), (.active, 3, 5), (.active, 4, 10), (.active, 5, 20),
            (.active, 6, 50), (.active, 7, 100), (.paused, 5, 20), (.complete, 7, 100), (.inactive, 0, 0),
        ] as [(PhasedRelease.State, Int, Int)])
    func thePhasedScheduleIsApples(_ state: PhasedRelease.State, _ day: Int, _ percent: Int) {
        let phase = PhasedRelease(state: state, currentDayNumber: day)
        #expect(phase.percent == percent)
        #expect(phase.isInProgress == (state == .active || state == .paused))
    }
}

/// The App Store Connect client against the loopback server's App Store Connect routes.
@Suite struct AppStoreConnectClientTests {
    static let secret = "asc-secret-\(UUID().uuidString)"

    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.shared.get()
    }

    func client(_ scenario: String, token: String, credentials: AppStoreConnectClient.Credentials? = nil) throws
        -> AppStoreConnectClient
    {
        try AppStoreConnectClient(
            credentials: credentials ?? .token(try BearerToken(Self.secret)),
            configuration: .init(
                baseURL: server.baseURL(scenario, token: token), retry: RetryPolicy(baseDelay: .milliseconds(10))))
    }

    func failure(_ client: AppStoreConnectClient, _ app: AppStoreApp = .id(414_478_124)) async -> HTTPClientError? {
        do throws(HTTPClientError) {
            _ = try await client.status(of: app)
            return nil
        } catch {
            var dumped = ""
            dump(error, to: &dumped)
            #expect(!error.description.contains(Self.secret) && !dumped.contains(Self.secret))
            return error
        }
    }

    @Test(
        arguments: [
            ("removed", "8.0.2", "READY_FOR_DISTRIBUTION", true, nil, nil),
            ("removedlegacy", "8.0.2", "REMOVED_FROM_SALE", true, nil, nil),
            ("complete", "8.0.2", "READY_FOR_DISTRIBUTION", false, "8.0.10", nil),
            ("drafts", "8.0.2", "READY_FOR_DISTRIBUTION", false, nil, "8.2 PREPARE_FOR_SUBMISSION"),
            (
                "draftandpending", "8.0.2", "READY_FOR_DISTRIBUTION", false, "8.1",
                "8.2 METADATA_REJECTED"
            ),
            ("noversion", "8.0.2", "READY_FOR_DISTRIBUTION", false, nil, nil),
            ("relativenext", "8.0.2", "READY_FOR_DISTRIBUTION", false, "8.0.10", nil),
        ] as [(String, String, String, Bool, String?, String?)])
    func removedFromSaleDraftsAndPendingAreApart(
        _ world: String, _ live: String, _ state: String, _ removed: Bool, _ pending: String?, _ draft: String?
    ) async throws {
        let status = try await client(world, token: UUID().uuidString).status(of: .id(414_478_124))
        #expect(status.live?.version == live && status.live?.state.rawValue == state, "\(world): \(status)")
        #expect(status.live?.removedFromSale == removed && status.removedFromSale == removed, "\(world)")
        #expect(status.pending?.version == pending, "\(world): only versions on their way are pending")
        #expect(status.draft.map { "\($0.version) \($0.state)" } == draft, "\(world)")
        if removed {
            #expect(status.text.contains("removed from sale"))
            let reasons = ForceGate.connectReasons(status, lookup: try Version(parsing: live))
            #expect(reasons.count == 1 && reasons[0].contains("removed from sale"), "forcing is never safe: \(reasons)")
        }
    }

    @Test(
        arguments: [
            (AppStoreConnectPlatform.iOS, "8.0.2", nil), (.macOS, "3.1", nil), (.tvOS, "2.0", nil),
            (.visionOS, "1.5", "1.6"),
        ] as [(AppStoreConnectPlatform, String, String?)])
    func eachPlatformIsAskedForItsOwnVersions(_ platform: AppStoreConnectPlatform, _ live: String, _ pending: String?)
        async throws
    {
        let token = UUID().uuidString
        let status = try await client("platforms", token: token).status(of: .id(414_478_124), platform: platform)
        #expect(status.live?.version == live && status.pending?.version == pending, "\(platform): \(status)")
        #expect(try server.ascStats(token: token)["platforms"] as? [String] == [platform.rawValue])
    }

    @Test func aPhasedReleasesStartIsADateTime() async throws {
        let versions = try await client("phased", token: UUID().uuidString).versions(appID: "414478124")
        let start = try #require(versions.compactMap(\.phasedRelease).first?.startDate)
        #expect(ISO8601Timestamp.string(from: start) == "2021-02-02T10:16:45Z")
    }

    @Test func aVersionWithoutAVersionStringIsSkippedNotFatal() async throws {
        let versions = try await client("noversion", token: UUID().uuidString).versions(appID: "414478124")
        #expect(versions.map(\.id) == ["v3"], "v9 has no versionString and v8 no attributes")
    }

    @Test(
        arguments: [
            ("complete", "8.0.2", "READY_FOR_DISTRIBUTION", "COMPLETE", "8.0.10", "WAITING_FOR_REVIEW"),
            ("phased", "8.0.2", "READY_FOR_DISTRIBUTION", "ACTIVE", nil, nil),
            ("paused", "8.0.2", "READY_FOR_DISTRIBUTION", "PAUSED", nil, nil),
            ("approved", "8.0.2", "READY_FOR_DISTRIBUTION", nil, "8.0.10", "PENDING_DEVELOPER_RELEASE"),
            ("ahead", "8.0.10", "READY_FOR_DISTRIBUTION", "COMPLETE", nil, nil),
            ("legacy", "8.0.2", "READY_FOR_SALE", nil, "8.0.10", "IN_REVIEW"),
            ("future", "8.0.2", "READY_FOR_DISTRIBUTION", nil, "8.1", "READY_FOR_REVIEW_NEW_STATE"),
        ] as [(String, String, String, String?, String?, String?)])
    func theStatusReadsLivePendingAndPhasedAcrossPages(
        _ world: String, _ live: String, _ state: String, _ phase: String?, _ pending: String?, _ pendingState: String?
    ) async throws {
        let token = UUID().uuidString
        let status = try await client(world, token: token).status(of: .bundleID("com.tencent.xin"))
        #expect(status.appID == "414478124", "the exact bundle id, not com.tencent.xin.dev")
        #expect(status.live?.version == live && status.live?.state.rawValue == state)
        #expect(status.live?.phasedRelease?.state.rawValue == phase)
        #expect(status.pending?.version == pending && status.pending?.state.rawValue == pendingState)
        let stats = try server.ascStats(token: token)
        #expect(
            (stats["pages"] as? Int ?? 0) >= 1 && stats["malformed"] as? Int == 0 && stats["unauthorized"] as? Int == 0)
        if world == "complete" { #expect(stats["pages"] as? Int == 2, "four versions, two a page") }
    }

    @Test func aKeyMakesAFreshTokenOnceAfterA401() async throws {
        let key = try TestKey()
        let credentials = try key.credentials()
        let token = UUID().uuidString
        let client = try client("401once", token: token, credentials: credentials)
        let status = try await client.status(of: .id(414_478_124))
        #expect(status.live?.version == "8.0.2")
        let stats = try server.ascStats(token: token)
        #expect(stats["jwts"] as? Int == 3 && stats["malformed"] as? Int == 0, "every request a well-formed JWT")
        #expect((stats["tokens"] as? [String])?.count == 2, "a fresh token after the 401")
        #expect(stats["kids"] as? [String] == ["TESTKEY123"])
        var dumped = ""
        dump(client, to: &dumped)
        for line in key.secretLines { #expect(!dumped.contains(line)) }
        for jwt in stats["tokens"] as? [String] ?? [] { #expect(!dumped.contains(jwt) && !"\(client)".contains(jwt)) }

        let always = try self.client("401", token: UUID().uuidString, credentials: credentials)
        guard case .connect(.unauthorized) = await failure(always)?.reason else {
            Issue.record("a 401 after a fresh token is final")
            return
        }
    }

    @Test func refusalsAreTypedAndATokenIsNotRetriedAfterA401() async throws {
        let token = UUID().uuidString
        let once = await failure(try client("401once", token: token))
        #expect(once?.isPermanent == true, "\(String(describing: once))")
        guard case .connect(.unauthorized(let detail)) = once?.reason else { return }
        #expect(detail.contains("signed bearer token"))
        #expect(try server.ascStats(token: token)["requests"] as? Int == 1)
        #expect(
            await failure(try client("403", token: UUID().uuidString))
                == .connect(
                    .forbidden(code: "FORBIDDEN_ERROR", detail: "The API key in use does not allow this request")))
        #expect(await failure(try client("complete", token: UUID().uuidString), .id(1)) == .connect(.appNotFound("1")))
        #expect(
            await failure(try client("complete", token: UUID().uuidString), .bundleID("com.example.none"))
                == .connect(.appNotFound("with bundle id com.example.none")))
        for scenario in ["evilnext", "schemenext"] {
            let evil = await failure(try client(scenario, token: UUID().uuidString))
            #expect(
                evil?.description.contains("points at http://example.com") == true,
                "\(scenario): a token never follows a link elsewhere: \(String(describing: evil))")
        }
    }

    @Test(arguments: ["429once", "500once"])
    func throttlingAndServerErrorsAreRetried(_ scenario: String) async throws {
        let token = UUID().uuidString
        let status = try await client(scenario, token: token).status(of: .id(414_478_124))
        #expect(status.live?.version == "8.0.2")
        #expect(try server.ascStats(token: token)["requests"] as? Int == 3)
    }

    @Test func theHourlyBudgetIsKept() async throws {
        let low = try client("ratelow", token: UUID().uuidString)
        _ = try await low.status(of: .id(414_478_124))
        #expect(low.rateLimit == RateLimitBudget(header: "user-hour-lim:3600;user-hour-rem:100;"))
        #expect(low.rateLimit?.isLow == true)
        #expect(low.rateLimit?.description == "100 of 3600 App Store Connect requests left this hour")
        let plenty = try client("complete", token: UUID().uuidString)
        _ = try await plenty.status(of: .id(414_478_124))
        #expect(plenty.rateLimit?.isLow == false)
        #expect(RateLimitBudget(header: "garbage") == nil)
    }
}

/// What App Store Connect changes in the force gate and in the manifest.
@Suite struct AppStoreConnectGateTests {
    func status(_ version: String, _ state: AppStoreVersion.State, phase: PhasedRelease? = nil) -> AppStoreConnectStatus
    {
        AppStoreConnectStatus(
            appID: "1", versions: [AppStoreVersion(id: "a", versionString: version, state: state, phasedRelease: phase)]
        )
    }

    func release(_ version: String) throws -> StoreRelease {
        StoreRelease(
            store: .appStore, appID: "1", version: try Version(parsing: version), country: try StorefrontCountry("us"),
            releaseDate: Date(timeIntervalSince1970: 1_600_000_000))
    }

    @Test func aPhasedReleaseOrALiveVersionTheLookupLacksHoldsForcingBack() throws {
        let play = PlayTrack(
            track: "production",
            releases: [
                PlayTrackRelease(
                    name: "8.0.2", versionCodes: [VersionCode(rawValue: 80)].compactMap { $0 }, status: .completed)
            ])
        let phased = CrossStoreReport(
            appStore: [try release("8.0.2")], play: play,
            appStoreConnect: status(
                "8.0.2", .readyForDistribution, phase: PhasedRelease(state: .active, currentDayNumber: 3)))
        #expect(phased.agree && !phased.forceUpdate.safe)
        #expect(
            phased.forceUpdate.reasons == [
                "8.0.2 is in a phased release on the App Store (ACTIVE, day 3, 5% of automatic updates); forcing waits until it is complete"
            ])
        let ahead = CrossStoreReport(
            appStore: [try release("8.0.2")], play: play, appStoreConnect: status("8.0.10", .readyForDistribution))
        #expect(ahead.forceUpdate.reasons == ["the lookup shows 8.0.2 but App Store Connect's live version is 8.0.10"])
        let done = CrossStoreReport(
            appStore: [try release("8.0.2")], play: play,
            appStoreConnect: status(
                "8.0.2", .readyForDistribution, phase: PhasedRelease(state: .complete, currentDayNumber: 7)))
        #expect(done.forceUpdate.safe)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(done)) as? [String: Any]
        let connect = object?["appStoreConnect"] as? [String: Any]
        #expect(connect?["appID"] as? String == "1" && connect?["pending"] is NSNull)
        #expect(((connect?["live"] as? [String: Any])?["phasedRelease"] as? [String: Any])?["percent"] as? Int == 100)
    }

    @Test func theManifestCarriesTheMinimumOnlyWhenSafeAndDecodesBack() throws {
        let generator = ManifestGenerator(now: Date(timeIntervalSince1970: 1_700_000_000))
        let minimum = try Version(parsing: "8.0.2")
        let withheld = try generator.appStore(
            try release("8.0.2"),
            appStoreConnect: status(
                "8.0.2", .readyForDistribution, phase: PhasedRelease(state: .paused, currentDayNumber: 4)),
            minimumSupported: minimum)
        #expect(withheld.manifest.minimumSupportedVersion == nil)
        #expect(withheld.reasons.first?.contains("phased release") == true)
        let written = try generator.appStore(try release("8.0.2"), minimumSupported: minimum)
        #expect(written.manifest.minimumSupportedVersion == minimum && written.reasons.isEmpty)
        let decoded = try JSONDecoder().decode(ReleaseManifest.self, from: JSONEncoder().encode(written.manifest))
        #expect(decoded == written.manifest)
        let above = try generator.appStore(try release("8.0.2"), minimumSupported: try Version(parsing: "9"))
        #expect(above.reasons == ["9 is above the latest version, 8.0.2", "not live in storefront us yet"])
        let named = PlayTrack(
            track: "production",
            releases: [
                PlayTrackRelease(
                    name: "80", versionCodes: [VersionCode(rawValue: 80)].compactMap { $0 }, status: .completed)
            ])
        #expect(throws: ManifestGeneratorError.self) {
            try generator.googlePlay(named, packageName: "com.example.app")
        }
    }
}
