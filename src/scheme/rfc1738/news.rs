//! `news` (RFC 1738 section 3.6).

use crate::UriRef;

/// A `newsurl`: `news:<newsgroup-name>`, `news:<message-id>` or `news:*`.
#[derive(Clone, Debug)]
pub struct News<'a>(pub(super) UriRef<'a>);

/// What a news URL designates (3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewsTarget<'a> {
    /// `news:*`: all available newsgroups.
    AllGroups,
    /// A newsgroup, such as `comp.infosystems.www.misc`.
    Group(&'a str),
    /// An article by its message-id (`<unique>@<full_domain_name>`, the
    /// RFC 1036 Message-ID without its angle brackets): told from a group
    /// by the `@`.
    Article(&'a str),
}

impl<'a> News<'a> {
    /// The group, the article or all groups.
    ///
    /// ```
    /// use urilex::scheme::rfc1738::{NewsTarget, Url};
    /// let Url::News(n) = Url::parse("news:1234@host.example").unwrap() else { panic!() };
    /// assert_eq!(n.target(), NewsTarget::Article("1234@host.example"));
    /// ```
    pub fn target(&self) -> NewsTarget<'a> {
        if let Some(g) = self.0.part("group") {
            NewsTarget::Group(g)
        } else if let Some(a) = self.0.part("article") {
            NewsTarget::Article(a)
        } else {
            NewsTarget::AllGroups
        }
    }
    /// The host of a message-id (`None` for a group).
    pub fn article_host(&self) -> Option<&'a str> {
        self.0.host_str()
    }
}
