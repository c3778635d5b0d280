# 수료 증명: `rocm-learn credential`과 `rocm-learn verify`

cli-credential = 수료한 내용의 수료 증명을 발급합니다(Open Badges 3.0, 서명된 JWT)
cli-credential-out = 수료 증명을 표준 출력 대신 FILE에 씁니다
cli-issuer-jwk = 수료 증명을 확인하는 사람을 위해 발급자의 공개 키를 JWK로 출력합니다
cli-verify = 수료 증명의 서명을 확인하고 무엇이 증명되는지 알려 줍니다
cli-verify-file = `rocm-learn credential --out FILE`로 만든 수료 증명
cli-verify-jwk = 이 JWK 파일의 키로 서명된 수료 증명만 받아들입니다(`rocm-learn credential --issuer-jwk`로 얻음)
credential-builtin-course = Ubuntu에서 실행하는 ROCm: rocm-learn 과정
credential-nothing-done = 아직 수료한 항목이 없어 수료 증명에 넣을 내용이 없습니다. 먼저 레슨, 퀴즈, 실습 중 하나를 수료하세요.
credential-write-failed = 수료 증명을 { $file }에 쓰지 못했습니다: { $error }
credential-written = 수료 증명을 { $file }에 썼습니다(수료한 항목 { $items }개).
credential-issued-server = 이 클래스 서버의 키로 서명했습니다. 서버가 기록한 결과를 서버가 보증합니다.
credential-issued-learner = 이 설치본의 키로 서명했습니다. 다른 누구도 기록하지 않았으므로 이 수료 증명은 결과에 대한 본인의 주장입니다.
credential-unreadable = { $file }을(를) 읽지 못했습니다: { $error }
credential-bad-jwk = { $file }은(는) JWK 형식의 Ed25519 공개 키(kty OKP, crv Ed25519)가 아닙니다. `rocm-learn credential --issuer-jwk`로 얻으세요.
credential-bad-format = 무효: { $file }은(는) 수료 증명(base64url 세 부분으로 된 JWT)이 아닙니다.
credential-bad-kind = 무효: { $file }은(는) EdDSA(Ed25519)로 서명된 vc+jwt가 아닙니다.
credential-bad-signature = 무효: { $file }의 서명이 일치하지 않습니다. 서명 후 변경되었거나 다른 키로 서명되었습니다.
credential-bad-type = 무효: { $file }은(는) 서명되어 있지만 OpenBadgeCredential이 아닙니다.
credential-valid = 유효: { $learner } 님이 "{ $course }"의 항목 { $items }개를 수료했습니다(발급 { $issued }, 키 { $kid }).
credential-proves = 증명하는 것: 그 키의 소유자가 이 수료 증명에 서명했고, 그 뒤로 내용이 전혀 바뀌지 않았다는 것.
credential-key-pinned = 키가 지정한 JWK의 키와 일치합니다.
credential-key-unpinned = 키는 파일 자체에 들어 있던 것입니다. 발급자가 공개한 JWK와 대조하세요(`--issuer-jwk FILE`). 대조하지 않으면 누구나 만들 수 있습니다.
credential-by-server = 클래스 서버가 기록: 실습은 서버에서 실행되었고 각 단계를 서버가 직접 채점했습니다.
credential-by-learner = 학습자 본인의 컴퓨터에서 기록: 본인 컴퓨터의 결과는 꾸며낼 수 있으므로 이것은 본인의 주장입니다.
credential-server-unpinned = 클래스 서버가 기록했다고 적혀 있지만, 그 서버의 JWK(`--issuer-jwk FILE`)와 대조하지 않으면 파일 자체의 주장일 뿐입니다.
credential-not-proves = 증명하지 않는 것: 실제로 누가 키보드 앞에 있었는지.
