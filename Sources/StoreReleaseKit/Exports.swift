// StoreReleaseKit is the umbrella: a program that imports it gets the core (versions, Play's
// in-app update records) and the update flow too, so code written before the split compiles
// unchanged. A program that needs only those imports StoreReleaseCore or StoreReleaseFlow and
// links no networking.
@_exported import StoreReleaseCore
@_exported import StoreReleaseFlow
