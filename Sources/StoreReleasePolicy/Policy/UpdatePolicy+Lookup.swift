import Foundation
import StoreReleaseCore
import StoreReleaseModels

extension UpdatePolicy {
    /// Decides about an App Store lookup result, with the minimum version its description states.
    ///
    /// The rules of ``decide(release:installed:context:)``, after a `[:mav: V]` tag in the
    /// description (``MinimumVersionTag``) has set the minimum supported version to V, unless
    /// the policy's own minimum is higher. A tag in SemVer form (`1.0.0-5.2.pre`) is compared as
    /// SemVer: a pre-release is below its release, build metadata does not count (`installed`
    /// compares the same way, whichever scheme it was read with). A malformed tag is ignored and
    /// named in the decision's ``UpdateDecision/warnings``.
    public func decide(
        lookup result: AppStoreLookupResult, installed: Version, context: UpdateContext = UpdateContext()
    )
        -> UpdateDecision
    {
        var policy = self
        var warnings: [String] = []
        switch result.appDescription.flatMap(MinimumVersionTag.find(in:)) {
        case .version(let minimum)?:
            policy.minimumSupportedVersion = Swift.max(minimum, minimumSupportedVersion ?? minimum)
        case let tag?:
            warnings += [tag.warning].compactMap { $0 }
        case nil:
            break
        }
        var decision = policy.decide(
            release: StoreRelease(result, country: result.storefront), installed: installed, context: context)
        decision.warnings = warnings
        return decision
    }
}
