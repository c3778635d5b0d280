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
