# 컨테이너와 GPU 선택 랩의 단계 사유(issue 16).
lab-why-container-none = 아직 rocminfo를 실행한 컨테이너가 없습니다. 이미지 뒤에 rocminfo를 붙여 실행하세요. 예: sudo docker run ... rocm/rocm-terminal rocminfo
lab-why-container-gpus = Docker가 --gpus를 거부했습니다({ $error }). 이 플래그는 NVIDIA의 컨테이너 런타임을 요구합니다. AMD GPU는 장치 노드로 넘겨줍니다: --device=/dev/kfd --device=/dev/dri
lab-why-container-no-kfd = rocminfo를 실행한 마지막 컨테이너에 /dev/kfd가 없었습니다. --device=/dev/kfd로 넘기세요.
lab-why-container-no-render = rocminfo를 실행한 마지막 컨테이너에는 /dev/kfd는 있었지만 렌더 노드가 없었습니다. --device=/dev/dri(또는 --device=/dev/dri/renderD128처럼 노드 하나)를 추가하세요.
lab-why-container-group = 컨테이너 프로세스에 /dev/kfd를 소유한 호스트의 render 그룹(GID { $gid })이 없었습니다. 이름은 이미지 안에서 찾으므로 번호로 넘기세요: --group-add $(getent group render | cut -d: -f3)
lab-why-container-root = 컨테이너가 root로 실행되어 어떤 장치든 열 수 있었습니다. 이미지 본래의 사용자로 실행하고, 대신 --group-add로 호스트의 render GID를 주세요.
lab-why-container-no-gpu = 마지막 컨테이너의 rocminfo가 GPU를 찾지 못했습니다({ $error }).
lab-why-login-no-gpu = 새로 로그인하면 ROCm 프로그램에 GPU가 하나도 보이지 않습니다. 로그인 파일의 *_VISIBLE_DEVICES 값을 rocminfo가 보여 주는 장치 번호와 맞춰 보세요.
lab-why-login-igpu = 새로 로그인해도 ROCm에 내장 GPU({ $name }, { $gfx })가 보입니다. ROCm은 내장 GPU를 지원하지 않습니다. ~/.bashrc에 export ROCR_VISIBLE_DEVICES=1을 적는 식으로 숨기세요.
lab-why-login-no-binary = 새로 로그인하면 PyTorch가 hipErrorNoBinaryForGpu로 멈춥니다. 로그인에서 보이는 GPU 중 하나에 대해 wheel에 코드가 없습니다. 로그인 파일에서 카드를 위한 HSA_OVERRIDE_GFX_VERSION을 설정하세요.
lab-why-login-override-no-binary = 새 로그인은 HSA_OVERRIDE_GFX_VERSION={ $value }를 설정하지만, PyTorch wheel에는 그 버전용 코드도 없어서 여전히 hipErrorNoBinaryForGpu로 멈춥니다. 같은 세대에서 wheel이 빌드된 버전인 10.3.0을 지정하세요.
lab-why-login-wrong-override = 새로 로그인하면 { $gfx } GPU가 다른 세대인 { $isa }용으로 빌드된 코드를 실행하게 되어, 첫 커널이 "invalid device function"으로 실패합니다. 같은 세대로 덮어쓰세요. gfx1031이라면 10.3.0입니다.
lab-why-no-torch = learner에게 PyTorch가 설치되어 있지 않습니다.
lab-why-login-bad-override = HSA_OVERRIDE_GFX_VERSION="{ $value }"는 버전 형식이 아닙니다. 런타임이 원하는 것은 10.3.0 같은 major.minor.stepping입니다.
lab-why-boot-blacklist = 다음 부팅에서도 amdgpu는 건너뜁니다. 블랙리스트가 막고 있습니다(grep -r amdgpu /etc/modprobe.d, 그리고 커널 명령줄의 modprobe.blacklist=). 손으로 로드해도 재부팅 뒤에는 남지 않습니다.
lab-why-boot-nomodeset = 다음 부팅에서도 커널 명령줄에 nomodeset이 남아 amdgpu가 시작을 거부합니다. /etc/default/grub의 GRUB_CMDLINE_LINUX_DEFAULT에서 빼고 sudo update-grub을 실행하세요.
lab-why-boot-update-grub = /etc/default/grub에서는 nomodeset이 사라졌지만 부트로더는 아직 그것을 넘깁니다. sudo update-grub으로 설정을 다시 생성하세요.
lab-why-boot-other = 다음 부팅에서도 amdgpu가 올라오지 않습니다. 이유는 커널 로그(sudo dmesg, journalctl -k)에서 확인하세요.
