import Foundation
import StoreReleaseKit

// Runs every example of the guides in Docs/. The test suite runs this executable with the
// base URL of its loopback server and compares what it prints with expected-output.txt: an
// example whose claim stops holding prints something else.
print("README")
try readmeExamples()
print("Version semantics")
try versionSemanticsExamples()
print("Deciding what to show")
try decidingWhatToShowExamples()
print("Release tooling")
try releaseToolingExamples()
print("Android parity")
try androidParityExamples()
print("Testing with the simulator")
try await testingWithTheSimulatorExamples()
print("Doc comments")
try docCommentExamples()
print("Migrating from hand-written checks")
try migratingExamples()
print("Release health")
try releaseHealthExamples()
print("Running a rollout")
try runningARolloutExamples()
if CommandLine.arguments.count > 1, let baseURL = URL(string: CommandLine.arguments[1]) {
    print("README: the App Store")
    let configuration = HTTPClientConfiguration(baseURL: baseURL, timeout: .seconds(10))
    let play = try PlayDeveloperAPIClient(
        token: try BearerToken("doc-examples-token"), configuration: .init(baseURL: baseURL))
    try await readmeLookupExample(client: AppStoreLookupClient(configuration: configuration), play: play)
    print("Checking the App Store")
    try await checkingTheAppStoreExamples(baseURL: baseURL)
    print("Release tooling: both stores, live")
    try await releaseToolingLiveExamples(baseURL: baseURL, accessToken: "doc-examples-token")
    print("Release tooling: App Store Connect")
    try await appStoreConnectExamples(baseURL: baseURL)
    print("Watching a release")
    try await watchingAReleaseExamples(baseURL: baseURL)
    print("Migrating: seed 000")
    try await migratingLookupExample(client: AppStoreLookupClient(configuration: configuration))
} else {
    print("Checking the App Store: skipped (give a lookup server's base URL to run it)")
}
print("All documentation examples ran.")
