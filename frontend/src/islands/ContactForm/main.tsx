import { mountIsland } from "../../shared/ui/mountIsland";

// The server-rendered form works on its own (it posts to /contact-us); the island's code, with
// the form library, comes after the page and takes over, keeping anything already typed.
void import("../../features/contact/ContactForm").then(({ ContactForm, typedValues }) => {
  const initial = typedValues(document.querySelector<HTMLFormElement>('[data-island="ContactForm"] form'));
  mountIsland("ContactForm", () => <ContactForm initial={initial} />);
});
