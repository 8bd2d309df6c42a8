import Foundation

/// The JSON:API documents App Store Connect answers with, as far as the client reads them.
enum AppStoreConnectDocuments {
    struct Links: Decodable {
        let next: String?
    }

    /// `GET /v1/apps?filter[bundleId]=…`.
    struct Apps: Decodable {
        struct App: Decodable {
            struct Attributes: Decodable {
                let bundleId: String?
            }
            let id: String
            let attributes: Attributes?
        }
        let data: [App]
    }

    /// `GET /v1/apps/{id}/appStoreVersions?include=appStoreVersionPhasedRelease`.
    struct Versions: Decodable {
        struct Resource: Decodable {
            struct Attributes: Decodable {
                let versionString: String
                let appVersionState: String?
                let appStoreState: String?
                let releaseType: String?
                let earliestReleaseDate: String?
                let createdDate: String?
            }
            struct Relationships: Decodable {
                struct ToOne: Decodable {
                    struct Identifier: Decodable {
                        let type: String
                        let id: String
                    }
                    let data: Identifier?
                }
                let appStoreVersionPhasedRelease: ToOne?
            }
            let id: String
            let attributes: Attributes
            let relationships: Relationships?
        }
        struct Included: Decodable {
            struct Attributes: Decodable {
                let phasedReleaseState: String?
                let currentDayNumber: Int?
                let totalPauseDuration: Int?
                let startDate: String?
            }
            let type: String
            let id: String
            let attributes: Attributes?
        }
        let data: [Resource]
        let included: [Included]?
        let links: Links?

        /// The versions, each with its phased release from `included`.
        func versions() throws(AppStoreConnectError) -> [AppStoreVersion] {
            var phased: [String: PhasedRelease] = [:]
            for item in included ?? [] where item.type == "appStoreVersionPhasedReleases" {
                guard let state = item.attributes?.phasedReleaseState else { continue }
                phased[item.id] = PhasedRelease(
                    state: PhasedRelease.State(rawValue: state), currentDayNumber: item.attributes?.currentDayNumber,
                    totalPauseDuration: item.attributes?.totalPauseDuration, startDate: item.attributes?.startDate)
            }
            var versions: [AppStoreVersion] = []
            for resource in data {
                let attributes = resource.attributes
                guard let state = attributes.appVersionState ?? attributes.appStoreState else {
                    throw .invalidPayload("version \(resource.id) has neither appVersionState nor appStoreState")
                }
                let link = resource.relationships?.appStoreVersionPhasedRelease?.data?.id
                versions.append(
                    AppStoreVersion(
                        id: resource.id, versionString: attributes.versionString,
                        state: AppStoreVersion.State(rawValue: state), releaseType: attributes.releaseType,
                        earliestReleaseDate: attributes.earliestReleaseDate.flatMap {
                            try? Date($0, strategy: .iso8601)
                        },
                        createdDate: attributes.createdDate.flatMap { try? Date($0, strategy: .iso8601) },
                        phasedRelease: link.flatMap { phased[$0] }))
            }
            return versions
        }
    }
}
