// StoreReleaseKit is the umbrella: a program that imports it gets every layer, so code written
// before the split compiles unchanged. A program that needs less imports less: StoreReleaseCore
// (versions, Play's in-app update records) and StoreReleaseFlow (the update flow and its
// simulator) link no networking.
@_exported import StoreReleaseClients
@_exported import StoreReleaseCore
@_exported import StoreReleaseFlow
@_exported import StoreReleaseModels
@_exported import StoreReleasePolicy
@_exported import StoreReleaseTooling
