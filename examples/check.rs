//! `cargo run --example check -- REF...`: prints each reference's verdict;
//! exits 1 if any is invalid.
fn main() {
    let mut ok = true;
    for arg in std::env::args().skip(1) {
        match urilex::UriRef::parse(&arg) {
            Ok(r) => println!("valid   {arg}  {r:?}"),
            Err(e) => {
                ok = false;
                println!("invalid {arg}  {e}");
            }
        }
    }
    std::process::exit(if ok { 0 } else { 1 });
}
