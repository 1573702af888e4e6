// The open-data page for staff: while today's export is written (one request, which the
// server answers with what it wrote), the button is held and the page says why it waits.

const form = document.querySelector("form[data-writing]");
if (form) {
  form.addEventListener("submit", () => {
    const button = form.querySelector("button");
    // Held after the form is sent: a second press would write the same export again.
    setTimeout(() => { button.disabled = true; }, 0);
    form.setAttribute("aria-busy", "true");
    form.querySelector("[data-progress]").textContent = form.dataset.writing;
  });
}
