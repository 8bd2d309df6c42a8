// libFuzzer target for the simulation script parser and random event sequences through the
// update-flow state machine.
//
// Built by Scripts/fuzz.sh with the library's sources, -sanitize=fuzzer,address. The input is
// read twice:
//   - as a script (UTF-8, repaired): parsing either fails with a line number inside the script
//     or succeeds, and running it must keep the invariants below after every step;
//   - as bytes, each choosing the next event from the whole event table, for both stores: a
//     random walk through every state, with the invariants checked after every event and a
//     refused event required to leave the state exactly as it was.

/// The invariants of the fake's table, after any event.
func checkInvariants(_ machine: UpdateFlowMachine) {
    let info = machine.appUpdateInfo
    check(
        info.bytesDownloaded <= info.totalBytesToDownload || info.totalBytesToDownload == 0,
        "bytes never exceed the total")
    let available: Bool
    switch machine {
    case .googlePlay(let flow): available = flow.offer.available
    case .appStore(let flow): available = flow.isUpdateAvailable
    }
    let expected: UpdateAvailability =
        !available
        ? .updateNotAvailable
        : (info.installStatus == .unknown ? .updateAvailable : .developerTriggeredUpdateInProgress)
    check(info.updateAvailability == expected, "availability matches the status as the table derives it")
    check(!(machine.isConfirmationDialogVisible && machine.isImmediateFlowVisible), "one flow at a time")
    check(machine.isInstallSplashScreenVisible == (info.installStatus == .installing), "the splash means INSTALLING")
    check(![.installed, .failed, .canceled].contains(info.installStatus), "transient statuses are never visible")
    check(
        info.allowedUpdateTypes.isEmpty || info.updateAvailability == .updateAvailable,
        "types allowed only when available")
}

/// Every verb of both stores with sample arguments, parsed by the script parser.
func events(_ store: Store) -> [UpdateFlowEvent] {
    let lines = [
        "setUpdateAvailable 7", "setUpdateAvailable 8 flexible", "setUpdateAvailable 9 immediate",
        "setUpdateNotAvailable", "setUpdatePriority 5", "setClientVersionStalenessDays 3",
        "setClientVersionStalenessDays null", "setInstallErrorCode -6", "setInstallErrorCode 0", "userAcceptsUpdate",
        "userRejectsUpdate", "downloadStarts", "setTotalBytesToDownload 100", "setBytesDownloaded 50",
        "setBytesDownloaded 150", "downloadCompletes", "downloadFails", "userCancelsDownload", "installCompletes",
        "installFails", "startUpdateFlow flexible", "startUpdateFlow immediate", "completeUpdate", "getAppUpdateInfo",
        "setStoreVersion 1.0", "setStoreVersion 2.0", "setInstalledVersion 1.0", "setInstalledVersion 2.0",
        "relaunch 1.0", "relaunch 2.0",
    ]
    return lines.compactMap { line in
        let words = line.split(separator: " ").map(String.init)
        return try? UpdateFlowScriptParser.event(words[0], Array(words.dropFirst()), store: store, line: 1)
    }
}

let playEvents = events(.googlePlay)
let appStoreEvents = events(.appStore)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScript(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
    do throws(UpdateFlowScriptError) {
        let script = try UpdateFlowScript(parsing: text)
        var machine = UpdateFlowMachine(store: script.store)
        for line in script.lines {
            let before = machine
            do throws(UpdateFlowError) {
                _ = try machine.handle(line.event)
            } catch {
                check(machine == before, "a refused event changes nothing")
            }
            checkInvariants(machine)
        }
        check(script.run().count == script.lines.count, "one step per event line")
    } catch {
        check(error.line >= 1 && error.line <= lineCount, "the error names a line of the script")
    }

    for (store, all) in [(Store.googlePlay, playEvents), (.appStore, appStoreEvents)] {
        var machine = UpdateFlowMachine(store: store)
        for byte in bytes {
            let before = machine
            do throws(UpdateFlowError) {
                _ = try machine.handle(all[Int(byte) % all.count])
            } catch {
                check(machine == before, "a refused event changes nothing")
            }
            checkInvariants(machine)
        }
    }
    return 0
}
