// StoreReleaseApp is what an app links: versions and Play's in-app update records (the core),
// the update flow and its simulator, the store models, the policy with its prompt texts and
// history, and the clients (the App Store lookup among them). None of these modules runs a
// process or needs `openssl`, so the product links on iOS, tvOS, watchOS and visionOS as on
// macOS and Linux; the App Store Connect signer over `openssl` lives with the release tooling
// (StoreReleaseKit), and an app that talks to App Store Connect gives the client its own
// `ES256Signer` (a few lines over CryptoKit).
@_exported import StoreReleaseClients
@_exported import StoreReleaseCore
@_exported import StoreReleaseFlow
@_exported import StoreReleaseModels
@_exported import StoreReleasePolicy
