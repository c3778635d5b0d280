//! Unix sockets that carry file descriptors and the kernel's word on who sent a message:
//! the supervisor learns the sender's pid from SCM_CREDENTIALS (which a process cannot forge
//! without privileges it does not have in the lab) and receives the caller's terminal as fds.

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};

/// At most this many fds ride on one message (stdin, stdout, stderr and a reply socket).
pub const MAX_FDS: usize = 4;

fn check(r: libc::c_int) -> io::Result<libc::c_int> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

/// A connected pair of sockets of `kind` (SOCK_SEQPACKET or SOCK_STREAM), close-on-exec.
pub fn pair(kind: libc::c_int) -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: socketpair writes two fds into the array we pass; we own them afterwards.
    check(unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            kind | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    })?;
    // SAFETY: both fds were just created for us.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Asks the kernel to attach the sender's credentials to every message read from `sock`.
pub fn enable_creds(sock: BorrowedFd) -> io::Result<()> {
    let on: libc::c_int = 1;
    // SAFETY: SO_PASSCRED takes an int; we pass its address and size.
    check(unsafe {
        libc::setsockopt(
            sock.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PASSCRED,
            (&on as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    })?;
    Ok(())
}

/// Sends `data` as one message with `fds` attached.
pub fn send(sock: BorrowedFd, data: &[u8], fds: &[RawFd]) -> io::Result<()> {
    assert!(fds.len() <= MAX_FDS);
    let mut iov = libc::iovec {
        iov_base: data.as_ptr() as *mut libc::c_void,
        iov_len: data.len(),
    };
    let mut space = [0u64; 16];
    // SAFETY: a zeroed msghdr is valid; the cmsg macros work within `space`, which is large
    // enough for MAX_FDS descriptors (checked by CMSG_SPACE below).
    unsafe {
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        if !fds.is_empty() {
            let bytes = std::mem::size_of_val(fds) as u32;
            let need = libc::CMSG_SPACE(bytes) as usize;
            assert!(need <= std::mem::size_of_val(&space));
            msg.msg_control = space.as_mut_ptr().cast();
            msg.msg_controllen = need as _;
            let c = libc::CMSG_FIRSTHDR(&msg);
            (*c).cmsg_level = libc::SOL_SOCKET;
            (*c).cmsg_type = libc::SCM_RIGHTS;
            (*c).cmsg_len = libc::CMSG_LEN(bytes) as _;
            std::ptr::copy_nonoverlapping(
                fds.as_ptr(),
                libc::CMSG_DATA(c).cast::<RawFd>(),
                fds.len(),
            );
        }
        let n = libc::sendmsg(sock.as_raw_fd(), &msg, libc::MSG_NOSIGNAL);
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// One message as read.
pub struct Received {
    pub len: usize,
    /// The sender's pid, as the kernel names it (when credentials are enabled).
    pub pid: Option<i32>,
    pub fds: Vec<OwnedFd>,
    /// The message or its fds did not fit: it must be dropped.
    pub truncated: bool,
}

/// Reads one message into `buf`. Ok(None) at the end of the stream.
pub fn recv(sock: BorrowedFd, buf: &mut [u8]) -> io::Result<Option<Received>> {
    let mut iov = libc::iovec {
        iov_base: buf.as_mut_ptr().cast(),
        iov_len: buf.len(),
    };
    let mut space = [0u64; 32];
    // SAFETY: as in `send`; every cmsg is read within the length the kernel wrote, and each fd
    // received is taken into an OwnedFd exactly once.
    unsafe {
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = space.as_mut_ptr().cast();
        msg.msg_controllen = std::mem::size_of_val(&space) as _;
        let n = libc::recvmsg(sock.as_raw_fd(), &mut msg, libc::MSG_CMSG_CLOEXEC);
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        let mut got = Received {
            len: n as usize,
            pid: None,
            fds: Vec::new(),
            truncated: msg.msg_flags & (libc::MSG_TRUNC | libc::MSG_CTRUNC) != 0,
        };
        let mut c = libc::CMSG_FIRSTHDR(&msg);
        while !c.is_null() {
            let data = libc::CMSG_DATA(c);
            let len = (*c).cmsg_len as usize - (data as usize - c as usize);
            if (*c).cmsg_level == libc::SOL_SOCKET && (*c).cmsg_type == libc::SCM_RIGHTS {
                let count = len / std::mem::size_of::<RawFd>();
                for i in 0..count {
                    let fd = std::ptr::read_unaligned(data.cast::<RawFd>().add(i));
                    got.fds.push(OwnedFd::from_raw_fd(fd));
                }
            } else if (*c).cmsg_level == libc::SOL_SOCKET
                && (*c).cmsg_type == libc::SCM_CREDENTIALS
                && len >= std::mem::size_of::<libc::ucred>()
            {
                let cred = std::ptr::read_unaligned(data.cast::<libc::ucred>());
                got.pid = Some(cred.pid);
            }
            c = libc::CMSG_NXTHDR(&msg, c);
        }
        if n == 0 && got.fds.is_empty() && got.pid.is_none() {
            return Ok(None);
        }
        Ok(Some(got))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsFd;

    #[test]
    fn a_message_carries_its_fds_and_the_senders_pid() {
        let (a, b) = pair(libc::SOCK_SEQPACKET).unwrap();
        enable_creds(b.as_fd()).unwrap();
        let (x, y) = pair(libc::SOCK_STREAM).unwrap();
        send(a.as_fd(), b"hello", &[x.as_raw_fd()]).unwrap();
        drop(x);
        let mut buf = [0u8; 64];
        let got = recv(b.as_fd(), &mut buf).unwrap().unwrap();
        assert_eq!(&buf[..got.len], b"hello");
        assert_eq!(got.pid, Some(std::process::id() as i32));
        assert_eq!(got.fds.len(), 1);
        assert!(!got.truncated);
        // The fd that came across is the same socket: what is written to it reaches `y`.
        use std::io::{Read, Write};
        let mut passed = std::os::unix::net::UnixStream::from(got.fds.into_iter().next().unwrap());
        passed.write_all(b"x").unwrap();
        let mut y = std::os::unix::net::UnixStream::from(y);
        let mut one = [0u8; 1];
        y.read_exact(&mut one).unwrap();
        assert_eq!(&one, b"x");
    }

    #[test]
    fn an_oversized_message_is_marked_truncated() {
        let (a, b) = pair(libc::SOCK_SEQPACKET).unwrap();
        send(a.as_fd(), &[7u8; 100], &[]).unwrap();
        let mut buf = [0u8; 10];
        assert!(recv(b.as_fd(), &mut buf).unwrap().unwrap().truncated);
    }
}
