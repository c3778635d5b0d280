# Credentials: `rocm-learn credential` and `rocm-learn verify`.

cli-credential = Issue a credential for what you completed (Open Badges 3.0, a signed JWT)
cli-credential-out = Write the credential to FILE instead of standard output
cli-issuer-jwk = Print the issuer's public key as a JWK, for whoever checks the credential
cli-verify = Check a credential's signature and say what it proves
cli-verify-file = A credential made with `rocm-learn credential --out FILE`
cli-verify-jwk = Accept only a credential signed with the key in this JWK file (from `rocm-learn credential --issuer-jwk`)
credential-builtin-course = ROCm on Ubuntu: the rocm-learn course
credential-nothing-done = Nothing is completed yet, so there is nothing to put in a credential. Finish a lesson, quiz or lab first.
credential-write-failed = Could not write the credential to { $file }: { $error }
credential-written = Credential written to { $file } ({ $items ->
    [one] 1 completed item
   *[other] { $items } completed items
}).
credential-issued-server = Signed with this class server's key: it vouches for the results it recorded.
credential-issued-learner = Signed with this install's own key: the credential is your own word about your results, which nobody else recorded.
credential-unreadable = Could not read { $file }: { $error }
credential-bad-jwk = { $file } is not an Ed25519 public key in JWK form (kty OKP, crv Ed25519); get it with `rocm-learn credential --issuer-jwk`.
credential-bad-format = NOT VALID: { $file } is not a credential (a JWT of three base64url parts).
credential-bad-kind = NOT VALID: { $file } is not a vc+jwt signed with EdDSA (Ed25519).
credential-bad-signature = NOT VALID: the signature of { $file } does not match. It was changed after signing, or signed with another key.
credential-bad-type = NOT VALID: { $file } is signed but is not an OpenBadgeCredential.
credential-valid = VALID: { $learner } completed { $items ->
    [one] 1 item
   *[other] { $items } items
} of "{ $course }" (issued { $issued }; key { $kid }).
credential-proves = It proves: the holder of that key signed this credential, and nothing in it changed since.
credential-key-pinned = The key is the one in the JWK you gave.
credential-key-unpinned = The key came with the file itself: compare it with the issuer's published JWK (`--issuer-jwk FILE`), or anyone could have made it.
credential-by-server = Recorded by a class server: the labs ran on the server and it graded each step itself.
credential-by-learner = Recorded on the learner's own machine: this is the learner's word, since results from their own machine could have been made up.
credential-server-unpinned = It says a class server recorded it, but without that server's JWK (`--issuer-jwk FILE`) this is only the file's word.
credential-not-proves = It does not prove who was at the keyboard.
