echo 'CUDA_VISIBLE_DEVICES=1' | sudo tee -a /etc/environment
echo 'HSA_OVERRIDE_GFX_VERSION="10.3.0"' | sudo tee -a /etc/environment
logout
python3 -c 'import torch; print(torch.cuda.is_available(), torch.cuda.get_device_name(0))'
