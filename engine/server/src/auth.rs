//! Who may connect as whom. Until users and ACLs arrive (issue 3) the only user is `default`
//! with no password, as in a fresh Redis; the `Authenticator` trait is where they plug in.

/// Checks credentials for AUTH and HELLO ... AUTH.
pub trait Authenticator: Send + Sync + 'static {
    /// Whether a new connection must authenticate before running commands (`-NOAUTH`).
    fn requires_auth(&self) -> bool;

    /// Checks `user` (None for the one-argument `AUTH password`) and `password`; on success the
    /// name of the authenticated user, otherwise the error reply (with its code).
    fn authenticate(&self, user: Option<&[u8]>, password: &[u8]) -> Result<String, String>;

    /// The users and their permissions, when this authenticator has them (issue 3).
    fn acl(&self) -> Option<&crate::acl::Acl> {
        None
    }
}

/// The `default` user with `nopass`, as Redis starts.
pub struct NoPassword;

pub const WRONGPASS: &str = "WRONGPASS invalid username-password pair or user is disabled.";

impl Authenticator for NoPassword {
    fn requires_auth(&self) -> bool {
        false
    }

    fn authenticate(&self, user: Option<&[u8]>, _password: &[u8]) -> Result<String, String> {
        match user {
            None => Err("ERR AUTH <password> called without any password configured for the default user. \
                         Are you sure your configuration is correct?"
                .to_string()),
            Some(b"default") => Ok("default".to_string()),
            Some(_) => Err(WRONGPASS.to_string()),
        }
    }
}
