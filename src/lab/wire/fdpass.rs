//! Unix sockets that carry file descriptors and the kernel's word on who sent a message:
//! the supervisor learns the sender's pid from SCM_CREDENTIALS (which a process cannot forge
//! without privileges it does not have in the lab) and receives the caller's terminal as fds.

use std::io;
use std::io::{IoSlice, IoSliceMut};
use std::mem::MaybeUninit;
use std::os::fd::{BorrowedFd, OwnedFd};

use rustix::net::{
    AddressFamily, RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, ReturnFlags,
    SendAncillaryBuffer, SendAncillaryMessage, SendFlags, SocketFlags,
};

pub use rustix::net::SocketType;

/// At most this many fds ride on one message (stdin, stdout, stderr and a reply socket).
pub const MAX_FDS: usize = 4;

/// A connected pair of sockets of `kind` (SEQPACKET or STREAM), close-on-exec.
pub fn pair(kind: SocketType) -> io::Result<(OwnedFd, OwnedFd)> {
    Ok(rustix::net::socketpair(
        AddressFamily::UNIX,
        kind,
        SocketFlags::CLOEXEC,
        None,
    )?)
}

/// Asks the kernel to attach the sender's credentials to every message read from `sock`.
pub fn enable_creds(sock: BorrowedFd) -> io::Result<()> {
    Ok(rustix::net::sockopt::set_socket_passcred(sock, true)?)
}

/// Sends `data` as one message with `fds` attached.
pub fn send(sock: BorrowedFd, data: &[u8], fds: &[BorrowedFd]) -> io::Result<()> {
    assert!(fds.len() <= MAX_FDS);
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(MAX_FDS))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    if !fds.is_empty() && !control.push(SendAncillaryMessage::ScmRights(fds)) {
        return Err(io::Error::other("too many descriptors for one message"));
    }
    rustix::net::sendmsg(
        sock,
        &[IoSlice::new(data)],
        &mut control,
        SendFlags::NOSIGNAL,
    )?;
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
    let mut space =
        [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(MAX_FDS), ScmCredentials(1))];
    let mut control = RecvAncillaryBuffer::new(&mut space);
    let msg = rustix::net::recvmsg(
        sock,
        &mut [IoSliceMut::new(buf)],
        &mut control,
        RecvFlags::CMSG_CLOEXEC,
    )?;
    let mut got = Received {
        len: msg.bytes,
        pid: None,
        fds: Vec::new(),
        truncated: msg
            .flags
            .intersects(ReturnFlags::TRUNC | ReturnFlags::CTRUNC),
    };
    // Every fd that arrived is taken (and so closed with `got` if the message is dropped).
    for m in control.drain() {
        match m {
            RecvAncillaryMessage::ScmRights(fds) => got.fds.extend(fds),
            RecvAncillaryMessage::ScmCredentials(cred) => {
                got.pid = Some(cred.pid.as_raw_nonzero().get());
            }
            _ => {}
        }
    }
    if got.len == 0 && got.fds.is_empty() && got.pid.is_none() {
        return Ok(None);
    }
    Ok(Some(got))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsFd;

    #[test]
    fn a_message_carries_its_fds_and_the_senders_pid() {
        let (a, b) = pair(SocketType::SEQPACKET).unwrap();
        enable_creds(b.as_fd()).unwrap();
        let (x, y) = pair(SocketType::STREAM).unwrap();
        send(a.as_fd(), b"hello", &[x.as_fd()]).unwrap();
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
        let (a, b) = pair(SocketType::SEQPACKET).unwrap();
        send(a.as_fd(), &[7u8; 100], &[]).unwrap();
        let mut buf = [0u8; 10];
        assert!(recv(b.as_fd(), &mut buf).unwrap().unwrap().truncated);
    }
}
