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
func checkInvariants(_ machine: UpdateFlowStateMachine) {
    let info = machine.appUpdateInfo
    check(machine.bytesDownloaded <= machine.totalBytes || machine.totalBytes == 0, "bytes never exceed the total")
    let expected: UpdateAvailability =
        !machine.isUpdateAvailable
        ? .updateNotAvailable
        : (machine.installStatus == .unknown ? .updateAvailable : .developerTriggeredUpdateInProgress)
    check(info.updateAvailability == expected, "availability matches the status as the table derives it")
    check(!(machine.isConfirmationDialogVisible && machine.isImmediateFlowVisible), "one flow at a time")
    check(machine.isInstallSplashScreenVisible == (info.installStatus == .installing), "the splash means INSTALLING")
    check(![.installed, .failed, .canceled].contains(info.installStatus), "transient statuses are never visible")
    check(
        info.allowedUpdateTypes.isEmpty || info.updateAvailability == .updateAvailable,
        "types allowed only when available")
}

func events() -> [UpdateFlowEvent] {
    let v1 = (try? Version(parsing: "1.0")).map { [$0] } ?? []
    let v2 = (try? Version(parsing: "2.0")).map { [$0] } ?? []
    var all: [UpdateFlowEvent] = [
        .setUpdateAvailable(versionCode: 7, type: nil), .setUpdateAvailable(versionCode: 8, type: .flexible),
        .setUpdateAvailable(versionCode: 9, type: .immediate), .setUpdateNotAvailable, .setUpdatePriority(5),
        .setClientVersionStalenessDays(3), .setClientVersionStalenessDays(nil),
        .setInstallErrorCode(.errorInstallNotAllowed),
        .setInstallErrorCode(.noError), .userAcceptsUpdate, .userRejectsUpdate, .downloadStarts,
        .setTotalBytesToDownload(100), .setBytesDownloaded(50), .setBytesDownloaded(150), .downloadCompletes,
        .downloadFails, .userCancelsDownload, .installCompletes, .installFails, .startUpdateFlow(.flexible),
        .startUpdateFlow(.immediate), .completeUpdate, .getAppUpdateInfo,
    ]
    for version in v1 + v2 { all += [.setStoreVersion(version), .setInstalledVersion(version), .relaunch(version)] }
    return all
}

let allEvents = events()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScript(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
    do throws(UpdateFlowScriptError) {
        let script = try UpdateFlowScript(parsing: text)
        var machine = UpdateFlowStateMachine(store: script.store)
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

    for store in [Store.googlePlay, .appStore] {
        var machine = UpdateFlowStateMachine(store: store)
        for byte in bytes {
            let before = machine
            do throws(UpdateFlowError) {
                _ = try machine.handle(allEvents[Int(byte) % allEvents.count])
            } catch {
                check(machine == before, "a refused event changes nothing")
            }
            checkInvariants(machine)
        }
    }
    return 0
}
