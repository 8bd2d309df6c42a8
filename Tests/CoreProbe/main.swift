// A program that uses only StoreReleaseCore and StoreReleaseFlow, as an app's own tests would:
// CoreProductTests checks that its link holds no networking library (FoundationNetworking, curl,
// TLS), and runs it.
import StoreReleaseCore
import StoreReleaseFlow

let installed = try Version(parsing: "8.0.2")
let store = try Version(parsing: "8.0.10")
print("\(store) is newer than \(installed): \(store > installed)")

var fake = UpdateFlowSimulator()
try fake.setUpdateAvailable(81)
let info = try fake.getAppUpdateInfo()
print("Play offers version code \(info.availableVersionCode): \(info.updateAvailability)")
