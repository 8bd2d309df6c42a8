// The start-up benchmark's baseline: the least a Swift program does, linked as `storerelease` is
// (Package.swift's `oneFileBinary`), so that the two differ only in what `storerelease` does.
print("hello, world")
