import Foundation
import WebImageTestOrigin

@testable import WebImageServer

/// A real S3 implementation for the tests: moto_server on 127.0.0.1, with signature checking on.
///
/// moto checks signatures only for requests after its first `INITIAL_NO_AUTH_ACTION_COUNT`
/// ones; those four create an IAM user allowed `s3:*`, its access key and the bucket (with
/// boto3, which moto depends on). Every later request must be signed with that key.
struct MotoServer {
    static let bucket = "webimage-test"

    let process: ChildProcess
    let endpoint: URL
    let credentials: S3Credentials

    /// `moto_server` on PATH, or nil (the tests that need it are then skipped).
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/moto_server" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// moto_server's main, made to exit once the test process is gone (its parent changes), so
    /// that a crashed test run leaves no server behind.
    static let serverScript = """
        import os, sys, threading, time
        parent = os.getppid()
        def watch():
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
        from moto.server import main
        main(["-H", "127.0.0.1", "-p", sys.argv[1]])
        """

    static let setupScript = """
        import json, sys, time, boto3, botocore
        endpoint, bucket = sys.argv[1], sys.argv[2]
        options = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="setup",
                       aws_secret_access_key="setup")
        iam = boto3.client("iam", **options)
        for attempt in range(100):
            try:
                iam.create_user(UserName="webimage")
                break
            except botocore.exceptions.EndpointConnectionError:
                time.sleep(0.1)
        policy = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}
        iam.put_user_policy(UserName="webimage", PolicyName="s3", PolicyDocument=json.dumps(policy))
        key = iam.create_access_key(UserName="webimage")["AccessKey"]
        boto3.client("s3", **options).create_bucket(Bucket=bucket)
        print(key["AccessKeyId"], key["SecretAccessKey"])
        """

    /// Starts moto_server on a free port, sets it up, runs `body`, and always stops it.
    static func run<T>(_ body: (MotoServer) async throws -> T) async throws -> T {
        guard executable != nil else { throw S3TestFailure("moto_server is not on PATH") }
        // A port free a moment ago: the fake S3's, closed again.
        let probe = try await FakeS3.start()
        let port = probe.port
        try await probe.shutdown()
        let process = try ChildProcess(
            executable: "/usr/bin/env",
            arguments: ["INITIAL_NO_AUTH_ACTION_COUNT=4", "python3", "-c", serverScript, String(port)],
            standardError: .discarded)
        defer { process.killAndReap() }
        guard let endpoint = URL(string: "http://127.0.0.1:\(port)") else { throw S3TestFailure("bad port") }
        let setup = try ChildProcess(
            executable: "/usr/bin/env",
            arguments: ["python3", "-c", setupScript, endpoint.absoluteString, bucket])
        let (output, error) = await onOwnThread { setup.readToEnd() }
        let words = String(decoding: output, as: UTF8.self).split(separator: " ")
        guard await onOwnThread({ setup.waitForExit() }) == .exited(0), words.count == 2 else {
            throw S3TestFailure("moto setup failed: \(String(decoding: error, as: UTF8.self))")
        }
        let credentials = S3Credentials(
            accessKeyID: String(words[0]), secretAccessKey: words[1].trimmingCharacters(in: .whitespacesAndNewlines))
        return try await body(MotoServer(process: process, endpoint: endpoint, credentials: credentials))
    }

    func configuration(secret: String? = nil) -> S3Configuration {
        var credentials = self.credentials
        if let secret { credentials.secretAccessKey = secret }
        return S3Configuration(
            endpoint: endpoint, bucket: Self.bucket, region: "us-east-1", prefix: "fleet/", credentials: credentials)
    }
}
