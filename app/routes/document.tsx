import type { MetaFunction } from "@remix-run/node";
import { useEffect, useState } from "react";

export const meta: MetaFunction = () => [{ title: "系统文档 — Meta-Rank" }];

const SECTIONS = [
  { id: "concepts", title: "可视化解释的概念与意义" },
  { id: "datasets", title: "数据集介绍与选择" },
  { id: "algorithms", title: "算法介绍与选择" },
  { id: "workflow", title: "系统使用流程" },
  { id: "users", title: "系统用户管理" },
];

export default function Documentation() {
  const [active, setActive] = useState(SECTIONS[0].id);
  // Highlight the section being read: the last section whose top has scrolled past the header.
  useEffect(() => {
    const onScroll = () => {
      let current = SECTIONS[0].id;
      for (const s of SECTIONS) {
        const el = document.getElementById(s.id);
        if (el && el.getBoundingClientRect().top <= 120) current = s.id;
      }
      setActive(current);
    };
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  return (
    <div className="doc-layout">
      <nav className="doc-menu card" aria-label="文档目录">
        {SECTIONS.map((s) => (
          <a
            key={s.id}
            href={`#${s.id}`}
            className={active === s.id ? "active" : undefined}
            aria-current={active === s.id ? "true" : undefined}
            onClick={(e) => {
              e.preventDefault();
              document.getElementById(s.id)?.scrollIntoView({ behavior: "smooth" });
              history.replaceState(null, "", `#${s.id}`);
              setActive(s.id);
            }}
          >
            {s.title}
          </a>
        ))}
      </nav>
      <div>
        <section id="concepts" className="card doc-section">
          <h2>{SECTIONS[0].title}</h2>
          <p>可视化解释（归因方法）为图像分类模型的每个像素给出相关性分数，帮助研究者理解模型依据图像中的哪些区域作出判断。</p>
          <video controls preload="metadata" width="100%" poster="/doc/intro-poster.svg" data-testid="doc-video">
            <source src="/doc/intro.webm" type="video/webm" />
            您的浏览器不支持视频播放。
          </video>
        </section>
        <section id="datasets" className="card doc-section">
          <h2>{SECTIONS[1].title}</h2>
          <p>平台支持 Fashion-MNIST、程序生成的彩色场景数据集，以及管理员导入的 CIFAR-10/100 与图像文件夹数据集。详见“DATASETS”页面。</p>
        </section>
        <section id="algorithms" className="card doc-section">
          <h2>{SECTIONS[2].title}</h2>
          <p>
            可选算法包括 Saliency、InputXGradient、Integrated Gradients、SmoothGrad、GradientShap、Guided Backprop、Deconvolution、GradCAM、Occlusion、LIME 与
            KernelSHAP。
          </p>
        </section>
        <section id="workflow" className="card doc-section">
          <h2>{SECTIONS[3].title}</h2>
          <p>阅读教程 → 运行 MoRF/LeRF 评估 → 上传两个结果文件获得元分数与排名 → 提交算法 → 管理员审核。</p>
        </section>
        <section id="users" className="card doc-section">
          <h2>{SECTIONS[4].title}</h2>
          <p>普通用户可提交算法、管理个人数据集与训练任务；管理员还可审核提交、查看贡献者排名并监控 GPU 服务器。</p>
        </section>
      </div>
    </div>
  );
}
