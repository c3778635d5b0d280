# 관리형 런타임 랩에서 단계가 아직 끝나지 않은 이유(AMD의 rocm 명령, ~/.rocm).
rt-why-none = rocm에 아직 등록된 관리형 런타임이 없습니다(rocm runtimes list에 "installed: none"). ROCm { $version }을 여러분의 런타임으로 설치하세요: rocm install sdk에 --version과 --family를 붙입니다(이 GPU의 gfx 코드는 rocm examine으로 볼 수 있습니다).
rt-why-version = 관리형 런타임은 ROCm { $have }이고, 팀에 필요한 것은 { $version }입니다. --version 없이 rocm install sdk를 실행하면 TheRock의 릴리스 채널에서 가져옵니다. --version { $version }과 --family에 정확한 gfx 코드를 붙여 { $version }을 지정하세요.
rt-why-family = 그 릴리스의 ROCm 런타임은 { $have }용으로 빌드되었습니다. 이 노드의 GPU는 { $family }입니다. ROCm 10은 정확한 아키텍처마다 페이로드를 하나씩 배포하므로 --family { $family }로 다시 설치하세요.
rt-why-broken = 런타임 폴더 { $root }에 환경이 남아 있지 않습니다(.rocm-cli-runtime.json이나 bin/python이 없음). rocm은 이것을 쓸 수 없습니다. rocm runtimes uninstall로 지우고 다시 설치하세요.
rt-why-toolchain = 런타임 { $key }에는 컴파일러가 없습니다(rocm runtimes list에서 toolchain=excluded). 팀은 HIP 코드를 빌드합니다. 툴체인은 나중에 더할 수 없으니 --devel을 붙여 다시 설치하세요. 첫 런타임 옆에 두 번째 런타임이 생깁니다.
rt-why-no-active = rocm에 활성 런타임이 없습니다. 하나를 기본값으로 정하세요: rocm runtimes activate 뒤에 그 runtime_key를 붙입니다(키는 rocm runtimes list로 볼 수 있습니다).
rt-why-active-missing = rocm 설정은 활성 런타임으로 { $key }를 가리키지만, 그런 런타임은 등록되어 있지 않습니다. 등록된 런타임을 rocm runtimes activate로 활성화하세요.
rt-why-active-other = 활성 런타임은 아직 { $key }(ROCm { $have })이고, ROCm { $version }이 아닙니다. 설치 확인 질문에 거절했거나 나중에 rocm runtimes activate로 되돌리면 이렇게 됩니다. 새 런타임을 활성화하세요: rocm runtimes activate 뒤에 그 runtime_key를 붙입니다.
rt-why-login-none = 새 로그인에서 { $command }을(를) 전혀 찾지 못합니다. 활성 런타임의 프로그램 폴더를 셸 시작 파일에서 PATH에 넣으세요: { $bin }
rt-why-login-system = 새 로그인에서는 아직 시스템 ROCm의 { $command }이(가) 실행됩니다({ $dir }을(를) 거쳐). 런타임을 활성화하면 rocm이 쓰는 것만 바뀌고 PATH는 바뀌지 않습니다. 셸 시작 파일에서 { $bin }을(를) /opt/rocm/bin보다 앞에 두고 다시 로그인하세요.
rt-why-login-elsewhere = 새 로그인에서 { $command }이(가) { $dir }에서 실행되는데, 이것은 활성 런타임의 것이 아닙니다. 셸 시작 파일에서 { $bin }을(를) PATH 맨 앞에 두고 다시 로그인하세요.
rt-why-proof = 새 로그인이라면 ROCm { $version } 런타임을 씁니다. 여러분의 로그인에서 rocm-sdk version과 which hipcc를 실행해 확인하세요(시작 파일을 바꿨다면 먼저 다시 로그인하세요).
rt-why-proof-shell = rocm-sdk version을 실행한 셸의 PATH는 아직 시스템 ROCm의 프로그램을 가리킵니다. 이 로그인은 변경보다 먼저 시작되었습니다. 다시 로그인해(exit) 거기서 실행하세요.
