# 강의실: 종류를 붙인 ID, 진도 표, 콘텐츠 팩, 내보내기, 반 보고서

cli-arguments = 인수
classroom-kind-lesson = 레슨
classroom-kind-quiz = 퀴즈
classroom-kind-lab = 실습
classroom-col-kind = 종류
classroom-col-id = ID
classroom-col-status = 상태
classroom-col-score = 점수
classroom-col-title = 제목
classroom-bad-kind = "{ $spec }": "{ $kind }"라는 종류는 없습니다. lesson:ID, quiz:ID, lab:ID 중 하나로 적어 주세요.
classroom-unknown-item = "{ $spec }"라는 항목이 없습니다. 사용할 수 있는 항목: { $known }
classroom-ambiguous-item = "{ $id }"에 해당하는 항목이 여럿입니다: { $choices }. 원하는 항목 하나를 적어 주세요.
classroom-pack-no-manifest = 팩에 pack.toml이 없습니다. 진도와 내보내기에서 폴더 이름으로만 구별됩니다. `id`, `version`, `title`을 적은 pack.toml을 추가하세요.
classroom-pack-bad-extends = `extends`에는 "builtin"(내장 교재에 추가)만 쓸 수 있으며 "{ $value }"는 쓸 수 없습니다. 내장 교재를 대체하려면 생략하세요.
classroom-not-your-folder = { $dir }의 진도는 로그인 "{ $owner }"의 것입니다. 두 사람의 기록이 섞이지 않도록 다른 로그인에서는 열지 않습니다. { $env }에 자기 이름을 설정하거나(학습자마다 전용 폴더가 생깁니다) ROCM_LEARN_DATA_DIR에 자기 폴더를 지정하세요.
classroom-submit-failed = 반 폴더 { $dir }에 진도를 쓰지 못했습니다: { $error }. 진도는 이 컴퓨터에 저장되어 있습니다. 강사에게 알려 주세요.
classroom-report-replaced = 같은 학습자의 오래된 내보내기 { $count }개를 새것으로 대체했습니다.
classroom-report-foreign = 집계에서 제외: { $learner }은(는) 다른 교재({ $pack })를 내보냈습니다. 그 팩의 --content를 붙여 보고서를 만드세요.
classroom-report-items = 학습자별 항목
classroom-report-first-best = 첫 시도 { $first }/{ $total }, 최고 { $best }/{ $total }
classroom-report-minutes = { $n }분
classroom-report-hints = 힌트 { $n }회
classroom-report-solution-viewed = 해답 확인함
classroom-report-by-script = 스크립트로 완료
classroom-report-who = 해당자: { $names }
