import StoreReleaseKit

/// The examples of `Docs/StoreReleaseKit.docc/TestingWithTheSimulator.md`.
func testingWithTheSimulatorExamples() async throws {
    var fake = UpdateFlowSimulator()
    try fake.setUpdateAvailable(2)
    try fake.startUpdateFlow(.flexible)
    print(fake.isConfirmationDialogVisible)
    try fake.userAcceptsUpdate()
    try fake.downloadStarts()
    try fake.downloadCompletes()
    try fake.completeUpdate()
    print(fake.isInstallSplashScreenVisible)
    try fake.installCompletes()

    var statuses: [InstallStatus] = []
    for await state in fake.installStates {
        statuses.append(state.installStatus)
        if state.installStatus == .installed { break }
    }
    print(statuses == [.pending, .downloading, .downloaded, .installing, .installed])

    var failing = UpdateFlowSimulator()
    try failing.setUpdateAvailable(2)
    try failing.startUpdateFlow(.flexible)
    try failing.userAcceptsUpdate()
    try failing.downloadFails()
    print(!failing.isInstallSplashScreenVisible)
    let again = try failing.getAppUpdateInfo()
    print(again.updateAvailability)  // updateAvailable: offer it again

    do {
        try failing.completeUpdate()
    } catch {
        print(error.code == "ERROR_DOWNLOAD_NOT_PRESENT")  // the fake would do nothing
    }

    var play = UpdateFlowSimulator()
    try play.setUpdateAvailable(2)
    let flow = try play.requestUpdateFlow()
    try play.startUpdateFlow(.flexible)
    try play.userAcceptsUpdate()
    try play.downloadCompletes()
    for await result in flow {
        if case .downloaded = result { print("ready to install") }
    }

    let script = try UpdateFlowScript(parsing: "setUpdateAvailable 42\ncompleteUpdate\n")
    let steps = script.run()
    print(steps[1].accepted == false && steps[1].error == "ERROR_DOWNLOAD_NOT_PRESENT")

    var appStore = UpdateFlowSimulator(store: .appStore)
    try appStore.setStoreVersion(Version(parsing: "8.0.10"))
    try appStore.setInstalledVersion(Version(parsing: "8.0.2"))
    try appStore.startUpdateFlow(.flexible)
    try appStore.userAcceptsUpdate()  // the App Store opens
    try appStore.relaunch(Version(parsing: "8.0.10"))  // the next launch has the new version
    let updated = try appStore.getAppUpdateInfo()
    print(updated.updateAvailability)  // updateNotAvailable
}
