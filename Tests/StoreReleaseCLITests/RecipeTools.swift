import Foundation

/// What the recipes' machines have that this one stands in for: `gcloud`, the image the
/// Dockerfile builds, Google's gcloud image, and an App Store Connect key.
enum RecipeTools {
    /// A folder holding a `gcloud` that answers `gcloud auth print-access-token` for the
    /// androidpublisher scope (and, impersonating, only for a service account) with `token`, and
    /// refuses anything else, as the real one would without credentials.
    static func gcloud(in folder: URL, token: String) throws -> URL {
        let bin = folder.appendingPathComponent("gcloud-bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            [ "$1 $2" = "auth print-access-token" ] || { echo "gcloud: not played: $*" >&2; exit 1; }
            case " $* " in *" --scopes="*"https://www.googleapis.com/auth/androidpublisher"[,\\ ]*) ;; *) echo "gcloud: no androidpublisher scope" >&2; exit 1 ;; esac
            case " $* " in *" --impersonate-service-account="*) case " $* " in *"--impersonate-service-account="*".iam.gserviceaccount.com "*) ;; *) echo "gcloud: not a service account" >&2; exit 1 ;; esac ;; esac
            echo '\(token)'

            """
        let file = bin.appendingPathComponent("gcloud")
        // Written once: rewriting it just before a container runs it, while another test's process
        // may have been forked with the new file open, can make its exec fail (ETXTBSY).
        if (try? Data(contentsOf: file)) == Data(script.utf8) { return bin }
        try Data(script.utf8).write(to: file, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        return bin
    }

    /// The image a manifest names: the Dockerfile's (its binary where the Dockerfile copies it,
    /// its ENTRYPOINT and CMD) or Google's gcloud image; nil for any other.
    static func image(_ reference: String, in folder: URL, gcloudToken: String) throws -> KubernetesPods.Image? {
        let name = reference.split(separator: "/").last.map(String.init) ?? reference
        if name.hasPrefix("storerelease:") {
            let dockerfile = Dockerfile(try String(contentsOf: Dockerfile.packaged, encoding: .utf8))
            guard let runtime = dockerfile.runtime, let installed = dockerfile.installedBinary else { return nil }
            let root = folder.appendingPathComponent("image-storerelease")
            let binary = root.appendingPathComponent(installed)
            try FileManager.default.createDirectory(
                at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
            do {
                try FileManager.default.createSymbolicLink(
                    at: binary, withDestinationURL: BuiltProducts.directory.appendingPathComponent("storerelease"))
            } catch  where FileManager.default.fileExists(atPath: binary.path) {
                // Pods pulling the image side by side: another one made it first.
            }
            return KubernetesPods.Image(
                bin: binary.deletingLastPathComponent(), entrypoint: runtime.exec("ENTRYPOINT") ?? [],
                cmd: runtime.exec("CMD") ?? [])
        }
        if reference.hasPrefix("gcr.io/google.com/cloudsdktool/google-cloud-cli:") {
            return KubernetesPods.Image(bin: try gcloud(in: folder, token: gcloudToken), entrypoint: [], cmd: [])
        }
        return nil
    }

    /// A new App Store Connect key (P-256), as App Store Connect hands out.
    static func ascKey(at file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let made = try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", file.path])
        guard made.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["openssl": made.stderr]) }
    }

    /// The `kubectl create secret generic …` line a manifest's comment documents.
    static func kubectlLine(_ manifest: String) -> String? {
        manifest.split(separator: "\n").first { $0.contains("kubectl create secret generic") }
            .map { $0.drop { $0 == "#" || $0 == " " } }.map(String.init)
    }
}
