import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// The JSON:API documents App Store Connect answers with, as far as the client reads them.
enum AppStoreConnectDocuments {
    struct Links: Decodable {
        let next: String?
    }

    /// A JSON:API resource object: its type and id, its attributes and relationships (Apple's
    /// contract leaves all but the id optional; the client reads no more of a resource).
    struct Resource<Attributes: Decodable, Relationships: Decodable>: Decodable {
        let type: String?
        let id: String
        let attributes: Attributes?
        let relationships: Relationships?
    }

    /// The relationships of a resource whose relationships the client does not read: anything.
    struct NoRelationships: Decodable {
        init(from decoder: any Decoder) {}
    }

    /// A to-one relationship: the id of the resource it names, if it names one.
    struct ToOne: Decodable {
        struct Identifier: Decodable {
            let id: String
        }
        let data: Identifier?
    }

    /// A list of resources with their attributes, and the next page's link when there is one.
    struct Resources<Attributes: Decodable>: Decodable {
        typealias Item = Resource<Attributes, NoRelationships>
        let data: [Item]
        let links: Links?
    }

    /// A date-time as Apple writes it (`2020-12-14T10:16:45Z`, `2021-02-01T09:28:28-08:00`), or a
    /// plain date (`2020-12-14`), or `nil`.
    static func date(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle().year().month().day())
    }

    /// `GET /v1/apps?filter[bundleId]=…`.
    struct AppAttributes: Decodable {
        let bundleId: String?
    }
    typealias Apps = Resources<AppAttributes>

    /// `GET /v1/apps/{id}/appStoreVersions?include=appStoreVersionPhasedRelease`.
    struct Versions: Decodable {
        struct Attributes: Decodable {
            let versionString: String?
            let appVersionState: String?
            let appStoreState: String?
            let releaseType: String?
            let earliestReleaseDate: String?
            let createdDate: String?
        }
        struct Relationships: Decodable {
            let appStoreVersionPhasedRelease: ToOne?
        }
        typealias Resource = AppStoreConnectDocuments.Resource<Attributes, Relationships>
        struct PhasedReleaseAttributes: Decodable {
            let phasedReleaseState: String?
            let currentDayNumber: Int?
            let totalPauseDuration: Int?
            let startDate: String?
        }
        typealias Included = AppStoreConnectDocuments.Resource<PhasedReleaseAttributes, NoRelationships>
        let data: [Resource]
        let included: [Included]?
        let links: Links?

        /// The versions, each with its phased release from `included`.
        ///
        /// Every attribute is optional in Apple's contract: a version without a `versionString`
        /// or without any state says nothing about what users get, and is skipped.
        func versions() -> [AppStoreVersion] {
            var phased: [String: PhasedRelease] = [:]
            for item in included ?? [] where item.type == "appStoreVersionPhasedReleases" {
                phased[item.id] = item.phasedRelease
            }
            var versions: [AppStoreVersion] = []
            for resource in data {
                guard let attributes = resource.attributes, let versionString = attributes.versionString,
                    let state = attributes.appVersionState ?? attributes.appStoreState
                else { continue }
                let link = resource.relationships?.appStoreVersionPhasedRelease?.data?.id
                versions.append(
                    AppStoreVersion(
                        id: resource.id, versionString: versionString, state: AppStoreVersion.State(rawValue: state),
                        storeState: attributes.appVersionState == nil
                            ? nil : attributes.appStoreState.map(AppStoreVersion.State.init(rawValue:)),
                        releaseType: attributes.releaseType,
                        earliestReleaseDate: attributes.earliestReleaseDate.flatMap(AppStoreConnectDocuments.date),
                        createdDate: attributes.createdDate.flatMap(AppStoreConnectDocuments.date),
                        phasedRelease: link.flatMap { phased[$0] }))
            }
            return versions
        }
    }

    /// `GET /v1/apps/{id}/appAvailabilityV2`.
    struct Availability: Decodable {
        struct Attributes: Decodable {
            let availableInNewTerritories: Bool?
        }
        let data: Resource<Attributes, NoRelationships>
    }

    /// `GET /v2/appAvailabilities/{id}/territoryAvailabilities?include=territory`.
    struct TerritoryAvailabilities: Decodable {
        struct Attributes: Decodable {
            let available: Bool?
            let contentStatuses: [String]?
        }
        struct Relationships: Decodable {
            let territory: ToOne?
        }
        let data: [Resource<Attributes, Relationships>]
        let links: Links?

        /// The territories of the page; one without a territory id says nothing and is skipped.
        var territories: [AppStoreAvailability.Territory] {
            data.compactMap { resource in
                guard let id = resource.relationships?.territory?.data?.id else { return nil }
                return AppStoreAvailability.Territory(
                    id: id, available: resource.attributes?.available ?? false,
                    contentStatuses: resource.attributes?.contentStatuses ?? [])
            }
        }
    }
}

extension AppStoreConnectDocuments.Resource
where Attributes == AppStoreConnectDocuments.Versions.PhasedReleaseAttributes {
    /// The phased release this resource is, or `nil` without a state.
    var phasedRelease: PhasedRelease? {
        guard let state = attributes?.phasedReleaseState else { return nil }
        return PhasedRelease(
            state: PhasedRelease.State(rawValue: state), currentDayNumber: attributes?.currentDayNumber,
            totalPauseDuration: attributes?.totalPauseDuration,
            startDate: attributes?.startDate.flatMap(AppStoreConnectDocuments.date), id: id)
    }
}
