# kubectl의 편집 명령과 amdgpu-wont-load의 "DKMS 빌드 없음" 시작 상태에서 추가된 단계 이유.
lab-why-boot-no-module = 다음 부팅에도 실행 중인 커널 { $kernel }에는 amdgpu 모듈이 여전히 없습니다. DKMS는 다른 커널용으로만 빌드했습니다(dkms status). 이 커널의 헤더를 sudo apt install linux-headers-$(uname -r)로 설치하면 DKMS가 빌드합니다(헤더가 있다면 sudo dkms autoinstall을 실행해도 됩니다). linux-modules-extra-$(uname -r)를 설치하면 대신 Ubuntu 자체의 amdgpu를 쓸 수 있습니다.
