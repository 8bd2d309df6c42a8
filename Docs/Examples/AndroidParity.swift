import Foundation
import StoreReleaseKit

/// The examples of `Docs/StoreReleaseKit.docc/AndroidParity.md`.
func androidParityExamples() throws {
    do {
        print(InstallStatus.downloaded.rawValue == 11)
        print(InstallStatus(rawValue: 10) == .requiresUIIntent)  // legacy, still decodes
        let code = try InstallErrorCode(parsing: "-6")  // or "ERROR_INSTALL_NOT_ALLOWED"
        print(code == .errorInstallNotAllowed)
        let resuming = UpdateAvailability(name: "developer_triggered_update_in_progress")
        print(resuming == .developerTriggeredUpdateInProgress)
    }
    do {
        let json = #"""
            {"packageName": "com.example.app", "availableVersionCode": 88, "updateAvailability": "UPDATE_AVAILABLE",
             "installStatus": 0, "updatePriority": 4, "clientVersionStalenessDays": null,
             "allowedUpdateTypes": ["flexible", "immediate"]}
            """#
        let info = try JSONDecoder().decode(AppUpdateInfo.self, from: Data(json.utf8))
        print(info.isUpdateTypeAllowed(.immediate))
        print(info.isUpdateTypeAllowed(AppUpdateOptions.defaultOptions(.flexible)))
        let release = StoreRelease(info)
        print(release.store == .googlePlay && release.versionCode?.rawValue == 88)
    }
    try flexibleFlowExample()
    try immediateFlowExample()
    var fake = UpdateFlowSimulator()
    try fake.setUpdateAvailable(2, type: .immediate)
    try fake.startUpdateFlow(.immediate)
    try fake.userAcceptsUpdate()
    if let installed = VersionCode(rawValue: 1) {
        print(try onResume(&fake, installed: installed, startedType: .immediate))  // show the immediate update again
        print(try onResume(&fake, installed: installed, startedType: .flexible))  // nothing to resume
    }
}

func flexibleFlowExample() throws {
    var play = UpdateFlowSimulator()
    try play.setUpdateAvailable(2)  // Play knows of versionCode 2
    let info = try play.getAppUpdateInfo()
    if info.updateAvailability == .updateAvailable, info.isUpdateTypeAllowed(.flexible) {
        try play.startUpdateFlow(.flexible)  // the confirmation dialog
    }
    try play.userAcceptsUpdate()  // PENDING
    try play.downloadStarts()  // DOWNLOADING, while the app stays usable
    try play.downloadCompletes()  // DOWNLOADED: ask the user to restart
    try play.completeUpdate()  // INSTALLING: the install splash
    try play.installCompletes()  // INSTALLED, and the app restarts on the new version
    let after = try play.getAppUpdateInfo()
    print(after.updateAvailability)  // updateNotAvailable
}

func immediateFlowExample() throws {
    var play = UpdateFlowSimulator()
    try play.setUpdateAvailable(2, type: .immediate)
    try play.startUpdateFlow(.immediate)  // a full-screen flow that blocks the app
    try play.userAcceptsUpdate()
    try play.downloadCompletes()  // installs by itself: no completeUpdate()
    print(play.isInstallSplashScreenVisible)
}

func onResume(_ play: inout UpdateFlowSimulator, installed: VersionCode, startedType: AppUpdateType?)
    throws(UpdateFlowError) -> String
{
    let info = try play.getAppUpdateInfo()
    let context = UpdateContext(typeInProgress: startedType)  // Play's record does not say which
    switch UpdatePolicy().decide(play: info, installed: installed, context: context).action {
    case .completeUpdate: return "ask the user to restart (completeUpdate)"  // a flexible update waits
    case .resumeImmediate: return "show the immediate update again"
    case .none, .flexible, .immediate: return "nothing to resume"
    }
}
